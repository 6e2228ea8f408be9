/** Errors that explain themselves: what the emulator signed, its clock and the window, the balance and the cost. */

import { expect, test } from 'vitest';
import { call, makeEmulator, signingSecret } from '../support/api.js';

const to = ['27831234567'];

test('SIGNATURE_MISMATCH shows the exact string the emulator signed, never the secret', async () => {
  const emulator = makeEmulator();
  const reply = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: to, message: "Hi O'Brien!" },
    sign: 'wrong',
  });
  expect(reply.status).toBe(400);
  expect(reply.body.message).toBe('SIGNATURE_MISMATCH');
  expect(reply.body.description).toMatch(/^The Signature header does not match the body: /);
  expect(reply.body.description).toContain('The emulator signed "message=Hi%20O%27Brien%21&recipient[]=27831234567".');
  expect(reply.body.description).not.toContain(signingSecret);
});

test('a long signed string is cut at 64 characters, with its length and where to see all of it', async () => {
  const emulator = makeEmulator();
  const message = 'x'.repeat(400);
  const reply = await call(emulator, 'POST', '/v1/messages', { body: { recipient: to, message }, sign: 'wrong' });
  const signed = `message=${message}&recipient[]=27831234567`;
  expect(reply.body.description).toContain(
    `The emulator signed "${signed.slice(0, 64)}…" (${signed.length} characters; POST /_emulator/sign`,
  );
  expect(reply.body.description.length).toBeLessThan(400);
  const whole = await call(emulator, 'POST', '/_emulator/sign', {
    body: { recipient: to, message },
    key: false,
    sign: false,
  });
  expect(whole.body.string_to_sign).toBe(signed);
});

test("DATE_TIME_INVALID shows the emulator's time for the account and the window, after the clock moved", async () => {
  const emulator = makeEmulator();
  await emulator.clock.advance('1d');
  // 10:00Z + 1 day is 2026-11-22T12:00:00+02:00; a schedule for 12:10 is inside the first 15 minutes.
  const early = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: to, message: 'Hi', schedule: '2026-11-22T12:10' },
  });
  expect(early.body.message).toBe('DATE_TIME_INVALID');
  expect(early.body.description).toBe(
    'The schedule "2026-11-22T12:10" is in the past or not later than now plus 15 minutes. The emulator\'s time is 2026-11-22T12:00:00+02:00: give a time after 2026-11-22T12:15:00+02:00 and at most 2026-11-29T12:00:00+02:00.',
  );
  const late = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: to, message: 'Hi', schedule: '2026-11-30T12:00' },
  });
  expect(late.body.description).toMatch(
    /^The schedule "2026-11-30T12:00" is more than 7 days ahead\. The emulator's time is 2026-11-22T12:00:00\+02:00/,
  );
  const garbled = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: to, message: 'Hi', schedule: 'tomorrow' },
  });
  expect(garbled.body.description).toMatch(
    /^The schedule "tomorrow" is not ISO 8601 .*The emulator's time is 2026-11-22T12:00:00\+02:00/,
  );
});

test('INSUFFICIENT_BALANCE shows the balance and what the message costs', async () => {
  const emulator = makeEmulator({ balance: 1 });
  const reply = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: [...to, '27831234568'], message: 'Hi' },
  });
  expect(reply.status).toBe(402);
  expect(reply.body.description).toBe('This message costs 2 credits; the balance is 1.');
});

test("DATE_TIME_INVALID on an account on a test clock shows that clock's time, the one the schedule was checked against", async () => {
  const emulator = makeEmulator();
  const clock = emulator.clocks.create({ startTime: '2026-12-01T08:00:00Z' });
  emulator.accounts.create({ apiKey: 'pk_on_test_clock', clock: clock.id });
  const reply = await call(emulator, 'POST', '/v1/messages', {
    key: 'pk_on_test_clock',
    sign: 'sk_test_on_test_clock',
    body: { recipient: to, message: 'Hi', schedule: '2026-12-01T10:05' },
  });
  expect(reply.body.message).toBe('DATE_TIME_INVALID');
  expect(reply.body.description).toContain(
    "The emulator's time is 2026-12-01T10:00:00+02:00: give a time after 2026-12-01T10:15:00+02:00",
  );
});
