import { expect, test } from 'vitest';
import { call, makeEmulator, scheduleIn, send } from '../support/api.js';

test('a deleted message stays visible to the control API as deleted, with the time, and never to the API', async () => {
  const emulator = makeEmulator();
  const kept = await send(emulator, { recipient: ['27831234567'], message: 'kept', schedule: scheduleIn(30) });
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'bye', schedule: scheduleIn(30) });
  await emulator.clock.advance('2m');
  expect((await call(emulator, 'DELETE', `/v1/messages/${sent.id}`)).status).toBe(200);
  const view = (await call(emulator, 'GET', `/_emulator/messages/${sent.id}`, { key: false })).body;
  expect(view).toMatchObject({ id: sent.id, status: 'deleted', deleted_at: '2026-11-21T12:02:00+02:00' });
  expect(emulator.messages.list({ status: 'deleted' }).items.map((message) => message.id)).toEqual([sent.id]);
  expect(emulator.messages.list().items.map((message) => message.id)).toEqual([sent.id, kept.id]);
  expect((await call(emulator, 'GET', `/v1/messages/${sent.id}`)).body.message).toBe('MESSAGE_NOT_FOUND');
  expect((await call(emulator, 'DELETE', `/v1/messages/${sent.id}`)).body.message).toBe('MESSAGE_NOT_FOUND');
  expect((await call(emulator, 'GET', '/v1/messages')).body.list.map((message: { id: string }) => message.id)).toEqual([
    kept.id,
  ]);
  expect(emulator.accounts.get('pk_test_sms_emulator').live.messages).toBe(1);
  await emulator.clock.advance('1h');
  expect(emulator.messages.get(sent.id).status).toBe('deleted');
  expect(emulator.messages.get(kept.id).status).toBe('delivered');
});

test('a deleted message survives a snapshot round trip, still deleted and still out of the API', async () => {
  const emulator = makeEmulator();
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'bye', schedule: scheduleIn(30) });
  await call(emulator, 'DELETE', `/v1/messages/${sent.id}`);
  const snapshot = emulator.snapshot();
  emulator.reset();
  emulator.restore(snapshot);
  expect(emulator.messages.get(sent.id).status).toBe('deleted');
  expect((await call(emulator, 'GET', '/v1/messages')).body.message).toBe('NO_SMS_MESSAGES');
  await emulator.clock.advance('1h');
  expect(emulator.messages.get(sent.id).status).toBe('deleted');
  await expect(emulator.messages.forceStatus(sent.id, { status: 'failed' })).rejects.toThrow(/it was deleted/);
});

test("a reply's self link resolves to the sms-reply object, which the list still leaves out", async () => {
  const emulator = makeEmulator();
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'Coming?' });
  await emulator.clock.advance('1m');
  const reply = await emulator.replies.inject(sent.id, { text: 'Yes' });
  const webhook = emulator.webhooks.list({ message: reply.id }).items[0]?.payload as {
    _links: { self: { href: string } };
  };
  const self = new URL(webhook._links.self.href).pathname;
  expect(self).toBe(`/v1/messages/${reply.id}`);
  const read = await call(emulator, 'GET', self);
  expect(read).toMatchObject({
    status: 200,
    body: { id: reply.id, type: 'sms-reply', message: 'Yes', recipient: ['27831234567'], status: 'delivered' },
  });
  expect((await call(emulator, 'GET', `/sandbox/v1/messages/${reply.id}`)).body.message).toBe('MESSAGE_NOT_FOUND');
  expect((await call(emulator, 'GET', '/v1/messages')).body.total_items).toBe(1);
});

test('the control message list refuses a status no message can have instead of answering an empty list', async () => {
  const emulator = makeEmulator();
  await send(emulator, { recipient: ['27831234567'], message: 'hi' });
  const refused = await call(emulator, 'GET', '/_emulator/messages?status=deliverd', { key: false });
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({
    message: 'CONTROL_INVALID_REQUEST',
    description: expect.stringContaining('status'),
  });
  expect((await call(emulator, 'GET', '/_emulator/messages?status=pending', { key: false })).body.total).toBe(1);
});
