/** One way to word schema problems for people: the path, then what is wrong. */

import type { z } from 'zod';

export function describeIssues(error: z.ZodError, what: string): string {
  return error.issues
    .map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field(s) ${issue.keys.join(', ')}`
        : `${issue.path.join('.') || what}: ${issue.message}`,
    )
    .join('; ');
}

/**
 * Parse context for a schema checked once per emulator (options, a scenario): zod compiles an object schema's fast path
 * with `new Function` on its first parse, which costs more than the one parse it speeds up (a few ms of every start).
 */
export const parseOnce = { jitless: true } as const;
