import { expect, test } from 'vitest';
import { noSteps } from '../../src/domain/message.js';
import { makeEmulator, send } from '../support/api.js';

test('legs with no step to come share one frozen empty plan, which stays empty through sends, forced outcomes and snapshots', async () => {
  expect(Object.isFrozen(noSteps)).toBe(true);
  const emulator = makeEmulator();
  const sent = await send(emulator, { recipient: ['27831110000', '27832220000'], message: 'Hello' });
  await emulator.messages.forceStatus(sent.id, { status: 'delivered', recipient: '27831110000' });
  await emulator.clock.advance('7d');
  emulator.restore(emulator.snapshot());
  await send(emulator, { recipient: ['27831110000'], message: 'Again' });
  await emulator.clock.advance('7d');
  expect(noSteps).toEqual([]);
  expect(emulator.messages.list().items.every((message) => message.legs.every((leg) => leg.upcoming.length === 0))).toBe(true);
});
