/** Messages an account forgets (per-account reset, account deleted) stop moving: their timers stay queued but act no more. */

import { expect, test } from 'vitest';
import { apiKey, makeEmulator, send } from '../support/api.js';

test('after a per-account reset, the messages it forgot change no status and make no webhook event; new ones move on', async () => {
  const emulator = makeEmulator();
  await send(emulator, { recipient: ['27831234567'], message: 'forgotten' });
  emulator.reset({ account: apiKey });
  const kept = await send(emulator, { recipient: ['27831234568'], message: 'kept' });
  await emulator.clock.advance('5s');
  expect(emulator.webhooks.list().items.map((event) => [event.messageId, event.status])).toEqual([
    [kept.id, 'submitted'],
    [kept.id, 'delivered'],
  ]);
  expect(emulator.messages.get(kept.id).status).toBe('delivered');
});

test('after an account is deleted and created again with the same key, its old messages stay where they were', async () => {
  const emulator = makeEmulator();
  emulator.accounts.create({ apiKey: 'pk_again', signingSecret: 'again' });
  await send(emulator, { recipient: ['27831234567'], message: 'old' }, 'live', 'pk_again', 'again');
  emulator.accounts.delete('pk_again');
  emulator.accounts.create({ apiKey: 'pk_again', signingSecret: 'again' });
  await emulator.clock.advance('5s');
  expect(emulator.webhooks.list({ account: 'pk_again' }).items).toEqual([]);
});
