import { expect, test } from 'vitest';
import { formatSchedule } from '../../src/client/index.js';

test('formats a Date as YYYY-MM-DDTHH:MM with the +02:00 offset by default', () => {
  expect(formatSchedule(new Date('2026-11-22T07:30:00Z'))).toBe('2026-11-22T09:30+02:00');
});

test('formats in another offset when given', () => {
  expect(formatSchedule(new Date('2026-11-22T07:30:00Z'), 'Z')).toBe('2026-11-22T07:30+00:00');
  expect(formatSchedule(new Date('2026-11-22T07:30:00Z'), '-05:00')).toBe('2026-11-22T02:30-05:00');
});

test('rounds a time between minutes up, so the message never goes out earlier than asked', () => {
  expect(formatSchedule(new Date('2026-11-22T07:30:00.001Z'))).toBe('2026-11-22T09:31+02:00');
});

test('reformats ISO text with seconds or Z; keeps text already in the API format or not a time at all', () => {
  expect(formatSchedule('2026-11-22T07:30:00Z')).toBe('2026-11-22T09:30+02:00');
  expect(formatSchedule('2026-11-22T09:30')).toBe('2026-11-22T09:30');
  expect(formatSchedule('2026-11-22T09:30-01:00')).toBe('2026-11-22T09:30-01:00');
  expect(formatSchedule('tomorrow')).toBe('tomorrow');
});

test('refuses an invalid Date and a bad offset', () => {
  expect(() => formatSchedule(new Date(Number.NaN))).toThrow(/invalid Date/);
  expect(() => formatSchedule(new Date(), '2h')).toThrow(/not an offset/);
});
