/** Formats a schedule time the way the API expects it: `YYYY-MM-DDTHH:MM±HH:MM`. */

import { formatOffset, parseOffset } from '../domain/time.js';

const apiFormat = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}([+-]\d{2}:\d{2})?$/;

/**
 * A `Date` (or an ISO text with seconds or `Z`) as the API's schedule text in the given offset
 * (default `+02:00`, the service's zone). The API counts whole minutes, so a time between minutes is
 * rounded up: the message never goes out earlier than asked. Text already in the API's format, or
 * not a time at all, is sent as it is, for the API to judge.
 *
 * @example formatSchedule(new Date('2026-11-22T07:30:00Z')) // '2026-11-22T09:30+02:00'
 */
export function formatSchedule(time: Date | string, offset = '+02:00'): string {
  const offsetMinutes = parseOffset(offset);
  if (offsetMinutes === undefined)
    throw new RangeError(`sms-emulator client: "${offset}" is not an offset such as +02:00 or Z.`);
  if (typeof time === 'string' && (apiFormat.test(time) || Number.isNaN(Date.parse(time)))) return time;
  const ms = typeof time === 'string' ? Date.parse(time) : time.getTime();
  if (Number.isNaN(ms)) throw new RangeError('sms-emulator client: the schedule is an invalid Date.');
  const minute = Math.ceil(ms / 60_000) * 60_000;
  return new Date(minute + offsetMinutes * 60_000).toISOString().slice(0, 16) + formatOffset(offsetMinutes);
}
