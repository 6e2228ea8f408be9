import { expect, test } from 'vitest';
import { ApiError } from '../../src/index.js';
import { parseScheduleText, resolveSchedule } from '../../src/domain/schedule.js';
import { formatInstant, maxDurationMs, maxInstant, parseDuration } from '../../src/domain/time.js';
import { planLeg } from '../../src/engine/lifecycle.js';

const now = Date.parse('2026-11-21T10:00:00Z');

test.each([
  ['2026-11-21T12:30', '2026-11-21T10:30:00.000Z'],
  ['2026-11-21T12:30:15', '2026-11-21T10:30:15.000Z'],
  ['2026-11-21T10:30Z', '2026-11-21T10:30:00.000Z'],
  ['2026-11-21T05:30-05:00', '2026-11-21T10:30:00.000Z'],
  ['2026-11-21T16:00+05:30', '2026-11-21T10:30:00.000Z'],
])('reads %s (no offset means +02:00)', (text, iso) => {
  expect(new Date(parseScheduleText(text) as number).toISOString()).toBe(iso);
});

test.each([
  '2026-11-21 12:30',
  '2026-11-21T12',
  '2026-02-30T12:00',
  '2026-13-01T12:00',
  '2026-11-21T24:00',
  'tomorrow',
  '2026-11-21T12:30+2',
  '2026-11-21T12:30+15:00',
])('refuses %s as not ISO 8601 in the accepted form', (text) => {
  expect(parseScheduleText(text)).toBeUndefined();
});

test('accepts a time later than now plus 15 minutes and at most 7 days ahead', () => {
  expect(resolveSchedule('2026-11-21T12:16', now, 120)).toBe(now + 16 * 60_000);
  expect(resolveSchedule('2026-11-28T12:00', now, 120)).toBe(now + 7 * 86_400_000);
});

test.each([
  ['2026-11-21T11:00', 'in the past'],
  ['2026-11-21T12:15', 'not later than now plus 15 minutes'],
  ['2026-11-28T12:01', 'more than 7 days ahead'],
])('refuses %s as DATE_TIME_INVALID (%s)', (text, reason) => {
  try {
    resolveSchedule(text, now, 120);
    expect.unreachable();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('DATE_TIME_INVALID');
    expect((error as ApiError).description).toContain(reason);
  }
});

test.each([
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  1e300,
  -1e300,
  maxInstant + 1,
  8.64e15,
  -8.64e15,
])('renders %d as ISO 8601 with seconds and the offset, never throwing', (ms) => {
  for (const offset of [0, 120, -330, 840, -720])
    expect(formatInstant(ms, offset)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
});

test('holds a time past year 9999 at the last second of it', () => {
  expect(formatInstant(1e300, 0)).toBe('9999-12-31T23:59:59+00:00');
  expect(formatInstant(maxInstant, 120)).toBe('9999-12-31T23:59:59+02:00');
});

test('plans leg times no later than the last instant of year 9999', () => {
  const plan = planLeg(
    [
      { status: 'submitted', afterMs: maxDurationMs },
      { status: 'delivered', afterMs: maxDurationMs },
    ],
    maxInstant - 1000,
    maxDurationMs,
  );
  expect(plan.map((change) => change.at)).toEqual([maxInstant, maxInstant]);
});

test('accepts durations up to 36500 days', () => {
  expect(parseDuration('36500d')).toBe(maxDurationMs);
});

test('refuses a schedule past the last instant of year 9999', () => {
  expect(parseScheduleText('9999-12-31T23:59:59-05:00')).toBeUndefined();
  expect(parseScheduleText('9999-12-31T23:59:59+02:00')).toBe(Date.parse('9999-12-31T21:59:59Z'));
});

test('renders instants with seconds and the offset', () => {
  expect(formatInstant(now, 120)).toBe('2026-11-21T12:00:00+02:00');
  expect(formatInstant(now, -330)).toBe('2026-11-21T04:30:00-05:30');
  expect(formatInstant(now, 0)).toBe('2026-11-21T10:00:00+00:00');
});

test.each([
  ['90s', 90_000],
  ['15m', 900_000],
  ['2h', 7_200_000],
  ['7d', 604_800_000],
  ['250ms', 250],
  ['1500', 1500],
  [42, 42],
  ['5m1s', 301_000],
  ['1h30m', 5_400_000],
  ['1d2h', 93_600_000],
  ['1m500ms', 60_500],
  ['1.5h', 5_400_000],
  [1.5, 2],
  ['1.4', 1],
  ['0.4ms', 0],
])('reads the duration %j as %i ms (compounds add up; a fraction of a millisecond is rounded)', (text, ms) => {
  expect(parseDuration(text)).toBe(ms);
});

test.each([
  '',
  'soon',
  '-5m',
  '5 weeks',
  '5m 1s',
  '5m1',
  'm5',
  '99999999999999999999d',
  '36501d',
  1e300,
  Number.NaN,
  Number.POSITIVE_INFINITY,
])('refuses the duration %j', (text) => {
  expect(parseDuration(text)).toBeUndefined();
});

test('renders each instant on its own when instants and offsets alternate, within a second and across one', () => {
  expect(formatInstant(now + 999, 120)).toBe('2026-11-21T12:00:00+02:00');
  expect(formatInstant(now + 7_200_000, 0)).toBe('2026-11-21T12:00:00+00:00');
  expect(formatInstant(now + 999, 0)).toBe('2026-11-21T10:00:00+00:00');
  expect(formatInstant(now + 1_000, 0)).toBe('2026-11-21T10:00:01+00:00');
  expect(formatInstant(now - 1, 0)).toBe('2026-11-21T09:59:59+00:00');
  expect(formatInstant(now, 0)).toBe('2026-11-21T10:00:00+00:00');
});
