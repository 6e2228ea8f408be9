// Word wrapping for the generated kits' doc comments: a summary from the contract becomes lines of at most `width`
// characters (a word longer than that keeps a line of its own), so every language's comments read alike.

/** The lines of `text` wrapped at `width` characters, breaking only between words. */
export function wrapWords(text, width) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}
