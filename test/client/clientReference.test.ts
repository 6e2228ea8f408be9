/** A retrying client finds an earlier send by its client_reference: the typed client over the API, a test over the control API. */

import { expect, test } from 'vitest';
import { type Emulator, createClient, createEmulator } from '../../src/index.js';

/** A typed client of `emulator` without a socket, signed in as the account. */
function clientOf(emulator: Emulator, apiKey = 'pk_test_sms_emulator', signingSecret = 'sk_test_sms_emulator') {
  return createClient({ baseUrl: 'http://emulator.test', apiKey, signingSecret, fetch: emulator.fetch });
}

test('findByClientReference walks the list pages, narrowed to a recipient, and answers the newest match or undefined', async () => {
  const emulator = createEmulator({ clock: 'manual', seed: 'references', balance: 10_000 });
  const sms = clientOf(emulator);
  const first = await sms.send({ recipient: '27831234567', message: 'Order 1', client_reference: 'order-1' });
  for (let i = 0; i < 150; i++)
    await sms.send({ recipient: '27831234568', message: `Filler ${i}`, client_reference: `f-${i}` });

  expect((await sms.findByClientReference('order-1'))?.id).toBe(first.id); // past the first page of 100
  expect((await sms.findByClientReference('order-1', { recipient: '27831234567' }))?.id).toBe(first.id);
  expect(await sms.findByClientReference('order-1', { recipient: '27831234568' })).toBeUndefined();
  expect(await sms.findByClientReference('order-2')).toBeUndefined();
  const again = await sms.send({ recipient: '27831234567', message: 'Order 1 again', client_reference: 'order-1' });
  expect((await sms.findByClientReference('order-1'))?.id).toBe(again.id);
  await emulator.close();
});

test('the control list filters by the exact client reference, within an account and across accounts', async () => {
  const emulator = createEmulator({ clock: 'manual', seed: 'references' });
  const world = emulator.worlds.create({});
  const asWorld = clientOf(emulator, world.account.apiKey, world.account.signingSecret);
  const asDefault = clientOf(emulator);
  const mine = await asWorld.send({ recipient: '27831234567', message: 'Mine', client_reference: 'order-1' });
  await asWorld.send({ recipient: '27831234567', message: 'Other', client_reference: 'order-10' });
  const theirs = await asDefault.send({ recipient: '27831234567', message: 'Theirs', client_reference: 'order-1' });

  const own = emulator.messages.list({ account: world.account.apiKey, clientReference: 'order-1' });
  expect(own.items.map((message) => message.id)).toEqual([mine.id]);
  const everyone = emulator.messages.list({ clientReference: 'order-1' });
  expect(everyone.items.map((message) => message.id).sort()).toEqual([mine.id, theirs.id].sort());
  expect(
    emulator.messages.list({ clientReference: 'order-1', recipient: '27831234567', status: 'pending' }).total,
  ).toBe(2);
  expect(() => emulator.messages.list({ clientReference: '' })).toThrow(/clientReference/);
  await emulator.close();
});
