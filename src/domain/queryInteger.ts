/** One rule for a whole number given as query text (`page`, `limit`, a status filter), for the API and the control API alike. */

import { z } from 'zod';

/**
 * Plain decimal digits without a leading zero. `Number()` would also read `1e3`, `+1`, ` 5`, `1.0`,
 * `0x10` and `010`; each of those is refused so a client's encoding mistake fails loudly instead of
 * being served as if well formed (and `010`, octal 8 to some readers, is never taken for 10).
 */
export const queryIntegerPattern = /^(0|[1-9][0-9]*)$/;

/** The number `text` writes in that form; undefined for any other text (or digits too many to be a finite number). */
export function parseQueryInteger(text: string): number | undefined {
  if (!queryIntegerPattern.test(text)) return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}

/** A whole number given as a number (the library) or as query text in the form above (HTTP); refine it with `.pipe()`. */
export const queryIntegerSchema = z.union([z.number(), z.string()]).transform((value, context) => {
  const number = typeof value === 'number' ? value : parseQueryInteger(value);
  if (number !== undefined) return number;
  context.addIssue({ code: 'custom', message: 'expected a whole number in plain digits, such as 2' });
  return z.NEVER;
});
