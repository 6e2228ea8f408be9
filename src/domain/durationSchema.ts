/** The schemas of a duration, one definition for options, scenario files and the control API (parsed by `parseDuration`). */

import { z } from 'zod';
import { durationHint, fitsWallTimer, parseDuration, wallWaitHint } from './time.js';

/** `500ms`, `90s`, `15m`, `2h`, `7d` or milliseconds, at most 36500 days. */
export const durationSchema = z
  .union([z.string(), z.number()])
  .refine((value) => parseDuration(value) !== undefined, durationHint);

/** A duration waited on the host's wall clock by a Node timer, so at most about 24 days. */
export const wallWaitSchema = durationSchema.refine(fitsWallTimer, wallWaitHint);
