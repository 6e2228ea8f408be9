/** The range the emulator clock may take (times in years 1970..9999, speeds up to a million) and the schemas that enforce it. */

import { z } from 'zod';
import { maxInstant, minInstant } from './time.js';

/**
 * 9999-12-31T00:00:00Z, the start of the last day any time may hold: the latest instant the clock may
 * show, so its time renders within year 9999 at any offset (up to +14:00).
 */
export const maxTime = maxInstant + 1 - 86_400_000;
/** The fastest realtime speed: a million virtual milliseconds per real one. */
export const maxSpeed = 1_000_000;

/** The clock's modes: moving with wall time (at its speed), or only when told. */
export const clockModes = ['realtime', 'manual'] as const;
export type ClockMode = (typeof clockModes)[number];

/** An ISO 8601 instant within the clock's range. */
export const clockInstant = z.string().refine((value) => {
  const instant = Date.parse(value);
  return instant >= minInstant && instant <= maxTime;
}, 'expected an ISO 8601 time between 1970-01-01T00:00:00Z and 9999-12-31T00:00:00Z');

/** A realtime speed: more than 0, at most a million. */
export const clockSpeed = z.number().positive().max(maxSpeed, `expected a speed of at most ${maxSpeed}`);

/** A test clock's id as an account or a snapshot names it (the emulator makes `clock_` and 16 hex digits). */
export const clockId = z.string().min(1).max(200);
/** A test clock's optional name. */
export const clockName = z.string().min(1).max(200);
