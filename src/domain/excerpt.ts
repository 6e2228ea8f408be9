/** How an error message quotes a value it was given: whole when short, else its start and an ellipsis. */

/** The most characters of a value an error message repeats (a header or query value can be kilobytes long). */
export const excerptLength = 64;

/** `value` in double quotes, cut to `excerptLength` characters plus `…` when longer (never inside a surrogate pair). */
export function quoteExcerpt(value: string): string {
  if (value.length <= excerptLength) return `"${value}"`;
  const cut = /[\uD800-\uDBFF]/.test(value[excerptLength - 1] as string) ? excerptLength - 1 : excerptLength;
  return `"${value.slice(0, cut)}…"`;
}
