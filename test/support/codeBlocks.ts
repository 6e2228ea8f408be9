/** The fenced code blocks of a Markdown page, with where each starts and the marker that exempts one from running. */

export interface CodeBlock {
  /** `docs/options.md` */
  file: string;
  /** Line of the opening fence, from 1. */
  line: number;
  /** The fence's language (`sh`, `ts`, `yaml`, `text`, …); empty when the fence names none. */
  language: string;
  code: string;
  /** Why the block is not run, from a `<!-- not run: reason -->` line right above its fence. */
  notRun?: string;
}

/** Where a block is, as an editor opens it: `docs/options.md:12`. */
export const where = (block: CodeBlock): string => `${block.file}:${block.line}`;

const marker = /^<!-- not run: (.+?) -->$/;

export function codeBlocks(file: string, text: string): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${file}:${i + 1}: a code block is never closed`);
    const notRun = marker.exec(lines[i - 1] ?? '')?.[1];
    blocks.push({
      file,
      line: i + 1,
      language: open[1] ?? '',
      code: lines.slice(i + 1, end).join('\n') + '\n',
      ...(notRun ? { notRun } : {}),
    });
    i = end;
  }
  return blocks;
}
