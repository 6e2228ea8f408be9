/** The schedule rule: a schedule text's instant, checked against the window (scheduleWindow.ts) measured from the clock. */

import { ApiError } from './errors.js';
import { quoteExcerpt } from './excerpt.js';
import { defaultScheduleOffsetMinutes, maximumLead, minimumLead, scheduleFormat } from './scheduleWindow.js';
import { formatInstant, maxInstant, parseOffset } from './time.js';

const schedulePattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?$/;

/** The instant a schedule text names, or undefined when it is not in an accepted format. */
export function parseScheduleText(text: string): number | undefined {
  const match = schedulePattern.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offset = match[7] === undefined ? defaultScheduleOffsetMinutes : parseOffset(match[7]);
  if (offset === undefined) return undefined;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 31 February into March; a real calendar date must round-trip.
  if (new Date(utc).getUTCDate() !== day) return undefined;
  const instant = utc - offset * 60_000;
  return instant <= maxInstant ? instant : undefined;
}

/**
 * Checks a schedule against the window measured from `now` (the clock the account's send is judged by); returns its
 * instant or throws DATE_TIME_INVALID, whose description ends with that now and the window, in `offsetMinutes`.
 */
export function resolveSchedule(text: string, now: number, offsetMinutes: number): number {
  const instant = parseScheduleText(text);
  const problem =
    instant === undefined
      ? `is not ISO 8601 in the form ${scheduleFormat}`
      : instant <= now + minimumLead.ms
        ? `is in the past or not later than now plus ${minimumLead.words}`
        : instant > now + maximumLead.ms
          ? `is more than ${maximumLead.words} ahead`
          : undefined;
  if (problem === undefined) return instant as number;
  const at = (ms: number): string => formatInstant(ms, offsetMinutes);
  throw new ApiError(
    'DATE_TIME_INVALID',
    `The schedule ${quoteExcerpt(text)} ${problem}. The emulator's time is ${at(now)}: give a time after ${at(now + minimumLead.ms)} and at most ${at(now + maximumLead.ms)}.`,
  );
}
