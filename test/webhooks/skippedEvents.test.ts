/** Skipped events (no webhook URL) are logged unbuilt and built when read: what they show must not depend on when that is. */

import { afterEach, expect, test } from 'vitest';
import { createWebhookCatcher } from '../../src/index.js';
import { apiKey, call, makeEmulator, send } from '../support/api.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

test('a skipped event shows the id, time and payload it would have been posted with, however late it is read', async () => {
  const catcher = await createWebhookCatcher();
  const posting = makeEmulator({ webhookUrl: catcher.url, publicUrl: 'http://emulator.test' });
  const skipping = makeEmulator({ publicUrl: 'http://emulator.test' });
  open.push(catcher, posting, skipping);
  for (const emulator of [posting, skipping]) {
    await send(emulator, { recipient: ['27831234567', '27831234568'], message: 'Hi', client_reference: 'r1' });
    await emulator.clock.advance('1s');
    await send(emulator, { recipient: ['27831234569'], message: 'Later', schedule: '2026-11-21T12:30:00+02:00' });
    await emulator.clock.advance('1h');
  }
  const posted = posting.webhooks.list().items;
  const skipped = skipping.webhooks.list().items;
  expect(skipped.map((event) => event.state)).toEqual(Array(6).fill('skipped'));
  // The submitted events were read after their message was delivered: their payload still shows no delivery date.
  expect(skipped[0]?.payload).toMatchObject({ status: 'submitted', delivery_date: null });
  expect(skipped).toEqual(posted.map((event) => ({ ...event, url: null, state: 'skipped', attempts: [] })));
  expect(skipped.map((event) => Object.keys(event))).toEqual(posted.map((event) => Object.keys(event)));
});

test('a skipped event is found by its id, stays the same object when read again, and can be redelivered in its place once a URL is set', async () => {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator();
  open.push(catcher, emulator);
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('5s');
  const [first, second] = emulator.webhooks.list().items;
  expect(emulator.webhooks.get(second?.id as string)).toEqual(second);
  expect((await call(emulator, 'GET', `/_emulator/webhooks/${first?.id}`, { key: false })).body).toMatchObject({
    id: first?.id,
    state: 'skipped',
  });
  expect(
    (
      await call(
        emulator,
        'GET',
        `/_emulator/webhooks/${first?.id.replace(/.$/, (digit) => (digit === '0' ? '1' : '0'))}`,
        { key: false },
      )
    ).status,
  ).toBe(404);
  emulator.accounts.update(apiKey, { live: { webhookUrl: catcher.url } });
  const redelivered = await emulator.webhooks.redeliver(first?.id as string);
  expect(redelivered).toMatchObject({ id: first?.id, state: 'delivered', url: catcher.url });
  expect(catcher.received.map((request) => request.body.status)).toEqual(['submitted']);
  expect(emulator.webhooks.list().items.map((event) => [event.id, event.state])).toEqual([
    [first?.id, 'delivered'],
    [second?.id, 'skipped'],
  ]);
  expect(emulator.webhooks.list({ state: 'skipped' }).items.map((event) => event.id)).toEqual([second?.id]);
});
