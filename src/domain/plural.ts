/** How the cost wording counts a thing: `1 credit`, `2 credits`. */

/** `count` and `word`, with an `s` unless the count is one. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
