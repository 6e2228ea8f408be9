import { expect, test } from 'vitest';
import { makeEmulator, send } from '../support/api.js';
import { byLastDigit, steps } from '../support/deciders.js';

test('a message and each of its legs keep their own history when the legs move at different times and end differently', async () => {
  const emulator = makeEmulator();
  emulator.setOutcomeDecider(
    byLastDigit(steps(['submitted', 1000], ['undelivered', 1000]), steps(['submitted', 3000], ['delivered', 1000])),
  );
  const one = await send(emulator, { recipient: ['27831234568'], message: 'Solo' });
  const two = await send(emulator, { recipient: ['27831234567', '27831234568'], message: 'Pair' });
  await emulator.clock.advance('5s');
  const statuses = (history: { status: string }[] | undefined) => history?.map((change) => change.status);
  const pair = emulator.messages.get(two.id);
  expect(statuses(pair.legs[0]?.history)).toEqual(['pending', 'submitted', 'undelivered']);
  expect(statuses(pair.legs[1]?.history)).toEqual(['pending', 'submitted', 'delivered']);
  expect(statuses(pair.history)).toEqual(['pending', 'submitted', 'undelivered']);
  const solo = emulator.messages.get(one.id);
  expect(solo.history).toEqual(solo.legs[0]?.history);
  expect(statuses(solo.history)).toEqual(['pending', 'submitted', 'delivered']);
  expect(solo.history.map((change) => change.at)).toEqual([
    '2026-11-21T12:00:00+02:00',
    '2026-11-21T12:00:03+02:00',
    '2026-11-21T12:00:04+02:00',
  ]);
});
