/** Parses control input against its schema, or refuses it with CONTROL_INVALID_REQUEST naming each bad field. */

import type { z } from 'zod';
import { ApiError } from '../domain/errors.js';
import { describeIssues } from '../domain/issues.js';

export function parseControl<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw new ApiError('CONTROL_INVALID_REQUEST', `Invalid ${what}: ${describeIssues(result.error, what)}.`);
}
