/**
 * What a tool answers, bounded: texts that come from outside the emulator (message bodies, replies, a receiver's
 * answers) can be long or hostile, so each string is cut at a bound, each list at a length, and the whole at a size,
 * every cut said in place, so an agent's context never takes more than the bound from one call.
 */

/** Longest string kept whole; a longer one keeps this many characters and says how many it dropped. */
export const maxToolString = 4_000;
/** Most items a list keeps. */
export const maxToolItems = 200;
/** Largest answer, as JSON text. */
export const maxToolAnswer = 256 * 1024;

function bound(value: unknown, depth: number): unknown {
  if (typeof value === 'string')
    return value.length <= maxToolString
      ? value
      : `${value.slice(0, maxToolString)}… [${value.length - maxToolString} more characters cut]`;
  if (value === null || typeof value !== 'object') return value;
  if (depth > 32) return '[nested too deep: cut]';
  if (Array.isArray(value)) {
    const kept = value.slice(0, maxToolItems).map((item) => bound(item, depth + 1));
    return value.length > maxToolItems ? [...kept, `[${value.length - maxToolItems} more items cut]`] : kept;
  }
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, bound(field, depth + 1)]));
}

/** The value as a tool's JSON text, within the bounds above. */
export function boundedJson(value: unknown): string {
  const text = JSON.stringify(bound(value, 0) ?? null, null, 1);
  return text.length <= maxToolAnswer
    ? text
    : JSON.stringify({
        cut: `The answer was ${text.length} characters of JSON, more than ${maxToolAnswer}: ask for less (a filter, a page, a limit).`,
        start: text.slice(0, maxToolString),
      });
}
