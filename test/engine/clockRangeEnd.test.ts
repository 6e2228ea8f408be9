import { expect, test } from 'vitest';
import { control, makeEmulator, send } from '../support/api.js';

test('a test clock moved with next to a schedule past the end of its range stays in range, and its snapshot imports again', async () => {
  const emulator = makeEmulator();
  const clock = (await control(emulator, 'POST', '/clocks', { startTime: '9999-12-30T23:00:00Z' })).body;
  await control(emulator, 'POST', '/accounts', { apiKey: 'pk_far', signingSecret: 'sk_far', clock: clock.id });
  // 9999-12-31T01:00Z: inside the 7-day schedule window, an hour after the latest time the clock can show.
  await send(
    emulator,
    { recipient: ['27831234567'], message: 'late', schedule: '9999-12-31T03:00+02:00' },
    'live',
    'pk_far',
    'sk_far',
  );
  const moved = await control(emulator, 'POST', `/clocks/${clock.id}`, { next: true });
  expect(moved.body.now).toBe(Date.parse('9999-12-31T00:00:00Z'));
  const snapshot = (await control(emulator, 'GET', '/snapshot')).body;
  const imported = await control(emulator, 'PUT', '/snapshot', snapshot);
  expect(imported.status).toBe(200);
});
