/** Time is whole milliseconds wherever it enters: a fractional duration is rounded, so every state exports and imports again. */

import { expect, test } from 'vitest';
import { control, makeEmulator } from '../support/api.js';

test('a fractional advance moves the clock by whole milliseconds, and the snapshot it leaves imports again', async () => {
  const emulator = makeEmulator();
  const clock = emulator.clocks.create();
  const before = emulator.clock.state().now;

  expect((await control(emulator, 'POST', '/clock', { advance: 1.5 })).body.now).toBe(before + 2);
  expect((await control(emulator, 'POST', `/clocks/${clock.id}`, { advance: 0.4 })).body.now).toBe(clock.now);
  await emulator.clocks.advance(clock.id, '1.0005s');
  await emulator.clock.advance(2.5);

  expect(Number.isInteger(emulator.clock.state().now)).toBe(true);
  expect(emulator.clocks.get(clock.id).now).toBe(clock.now + 1001);
  const snapshot = (await control(emulator, 'GET', '/snapshot')).body;
  const imported = await control(emulator, 'PUT', '/snapshot', snapshot);
  expect(imported.status).toBe(200);
  expect((await control(emulator, 'GET', '/snapshot')).body).toEqual(snapshot);
});

test('compound durations move the clock, limit a run and bound a wait', async () => {
  const emulator = makeEmulator();
  const before = emulator.clock.state().now;

  expect((await control(emulator, 'POST', '/clock', { advance: '5m1s' })).body.now).toBe(before + 301_000);
  const run = await control(emulator, 'POST', '/clock', { runUntilIdle: true, limit: '1h30m' });
  expect(run.status).toBe(200);
  const refused = await control(emulator, 'POST', '/clock', { advance: '5m 1s' });
  expect(refused.status).toBe(400);
  expect(refused.body.description).toContain('1h30m or 5m1s');
});
