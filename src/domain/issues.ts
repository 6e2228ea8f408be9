/** One way to word schema problems for people: the path, then what is wrong. */

import type { z } from 'zod';

export function describeIssues(error: z.ZodError, what: string): string {
  return error.issues
    .map((issue) => (issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : `${issue.path.join('.') || what}: ${issue.message}`))
    .join('; ');
}
