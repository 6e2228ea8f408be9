/** A 429's Retry-After reaches the caller, and backing off means moving the test's clock, not sleeping. */

import { expect, test } from 'vitest';
import { SmsApiError, createClient, createEmulator } from '../../src/index.js';
import { maxRetryAfterSeconds, retryAfterSeconds } from '../../src/client/retryAfter.js';

test('SmsApiError carries the status, the headers and Retry-After in seconds of the account clock; moving that clock clears the limit', async () => {
  const emulator = createEmulator({ clock: 'manual', seed: 'retry-after' });
  const world = emulator.worlds.create({
    scenario: { faults: [{ match: { operation: 'send' }, rateLimit: { requests: 1, per: '1m' } }] },
  });
  const sms = createClient({
    baseUrl: 'http://emulator.test',
    apiKey: world.account.apiKey,
    signingSecret: world.account.signingSecret,
    fetch: emulator.fetch,
  });
  await sms.send({ recipient: '27831234567', message: 'First' });
  await emulator.clocks.advance(world.clock.id, '15s');

  const limited = await sms.send({ recipient: '27831234567', message: 'Second' }).catch((error: unknown) => error);
  expect(limited).toBeInstanceOf(SmsApiError);
  const error = limited as SmsApiError;
  expect([error.code, error.status, error.retryAfter]).toEqual(['TOO_MANY_REQUESTS', 429, 45]);
  expect(error.headers['retry-after']).toBe('45');
  expect(error.headers['content-type']).toMatch(/json/);

  // A real-time wait does nothing to a limit counted on the emulator's clock; moving the account's clock does.
  await new Promise((resolve) => setTimeout(resolve, 20));
  await expect(sms.send({ recipient: '27831234567', message: 'Still' })).rejects.toMatchObject({ status: 429 });
  await emulator.clocks.advance(world.clock.id, `${error.retryAfter}s`);
  await expect(sms.send({ recipient: '27831234567', message: 'Third' })).resolves.toMatchObject({ status: 'pending' });
  await emulator.close();
});

test('Retry-After in its HTTP-date form is read as seconds from now; without one, retryAfter is undefined', () => {
  const inTen = new Date(Date.now() + 10_000).toUTCString();
  const dated = new SmsApiError('TOO_MANY_REQUESTS', 429, 'slow down', '', { headers: { 'Retry-After': inTen } });
  expect(dated.retryAfter).toBeGreaterThanOrEqual(9);
  expect(dated.retryAfter).toBeLessThanOrEqual(10);
  expect(new SmsApiError('SERVER_ERROR', 500, 'oops').retryAfter).toBeUndefined();
  expect(
    new SmsApiError('SERVER_ERROR', 503, 'oops', '', { headers: { 'retry-after': 'soon' } }).retryAfter,
  ).toBeUndefined();
});

test('Retry-After that is neither non-negative integer seconds nor an HTTP-date is ignored, as RFC 9110 defines the field', () => {
  const read = (value: string) =>
    new SmsApiError('TOO_MANY_REQUESTS', 429, 'slow down', '', { headers: { 'Retry-After': value } }).retryAfter;
  for (const junk of ['-1', '1.5', '0.5', '+5', '1e3', '', '12/31/2099', '2099-12-31', 'Thu, 31 Feb 2099 00:00:00 GMT'])
    expect([junk, read(junk)]).toEqual([junk, undefined]);
  expect([read('0'), read(' 7 '), read('120')]).toEqual([0, 7, 120]);
});

test('Retry-After reads all three HTTP-date forms from now, a past date as 0, and is capped at one day', () => {
  const now = Date.UTC(2026, 10, 26, 12, 0, 0);
  expect(retryAfterSeconds('Thu, 26 Nov 2026 12:00:30 GMT', now)).toBe(30);
  expect(retryAfterSeconds('Thursday, 26-Nov-26 12:01:00 GMT', now)).toBe(60);
  expect(retryAfterSeconds('Thu Nov 26 12:02:00 2026', now)).toBe(120);
  expect(retryAfterSeconds('Sun Nov  6 08:49:37 1994', now)).toBe(0);
  expect(retryAfterSeconds('Thu, 31 Dec 2099 00:00:00 GMT', now)).toBe(maxRetryAfterSeconds);
  expect(retryAfterSeconds('86401', now)).toBe(maxRetryAfterSeconds);
  expect(retryAfterSeconds('99999999999999999999999', now)).toBe(maxRetryAfterSeconds);
  expect(maxRetryAfterSeconds).toBe(86_400);
});
