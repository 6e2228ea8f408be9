/** Webhooks against real HTTP receivers on loopback: tries, failures, order, replies, chaos, isolation. */

import { afterEach, expect, test } from 'vitest';
import { createWebhookCatcher, signRequest, type Emulator, type WebhookCatcher } from '../../src/index.js';
import { createHmac } from 'node:crypto';
import { apiKey, call, makeEmulator, send } from '../support/api.js';
import type { EmulatorOptions } from '../../src/index.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

async function setup(options: EmulatorOptions = {}): Promise<{ emulator: Emulator; catcher: WebhookCatcher }> {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator({ webhookUrl: catcher.url, webhookTimeout: '300ms', ...options });
  open.push(catcher, emulator);
  return { emulator, catcher };
}

const statuses = (catcher: WebhookCatcher) =>
  catcher.received.map((request) => `${request.body.recipient[0]}:${request.body.status}`);

test('submitted and delivered notifications arrive with the client_reference, narrowed to the leg', async () => {
  const { emulator, catcher } = await setup();
  const message = await send(emulator, {
    recipient: ['27831234567', '27831234568'],
    message: 'Hi',
    client_reference: 'order-9',
  });
  await emulator.clock.advance('5s');
  expect(statuses(catcher)).toEqual([
    '27831234567:submitted',
    '27831234568:submitted',
    '27831234567:delivered',
    '27831234568:delivered',
  ]);
  const delivered = catcher.received[3]?.body;
  expect(delivered).toMatchObject({
    id: message.id,
    type: 'sms',
    recipient: ['27831234568'],
    status: 'delivered',
    client_reference: 'order-9',
    credit: 2,
    delivery_date: '2026-11-21T12:00:05+02:00',
  });
  expect(delivered._links.self.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/messages\//);
  expect(catcher.received[0]?.headers['content-type']).toBe('application/json');
  const log = emulator.webhooks.list().items;
  expect(log.map((event) => [event.state, event.attempts.length])).toEqual(Array(4).fill(['delivered', 1]));
  expect(log[0]?.attempts[0]).toMatchObject({
    number: 1,
    status: 200,
    ok: true,
    url: catcher.url,
    at: '2026-11-21T12:00:01+02:00',
  });
});

test('advance resolves only after the webhooks it made due were tried (no sleeping needed)', async () => {
  const { emulator, catcher } = await setup();
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  expect(statuses(catcher)).toEqual(['27831234567:submitted']);
  const reply = await call(emulator, 'POST', '/_emulator/clock', {
    raw: JSON.stringify({ advance: '4s' }),
    key: false,
  });
  expect(reply.status).toBe(200);
  expect(statuses(catcher)).toEqual(['27831234567:submitted', '27831234567:delivered']);
});

test('a 500 is re-sent at once and the 200 that follows ends the tries', async () => {
  const { emulator, catcher } = await setup();
  catcher.respondWith([500, 200]);
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  const [event] = emulator.webhooks.list().items;
  expect(event?.state).toBe('delivered');
  expect(event?.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
  expect(catcher.received).toHaveLength(2);
});

test('only 200 counts: a 201 is a failed try', async () => {
  const { emulator, catcher } = await setup();
  catcher.respondWith([201, 204, 200]);
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  expect(emulator.webhooks.list().items[0]?.attempts.map((attempt) => [attempt.status, attempt.ok])).toEqual([
    [201, false],
    [204, false],
    [200, true],
  ]);
});

test('a receiver that always fails gets exactly four tries, then the event is marked failed and stays logged', async () => {
  const { emulator, catcher } = await setup();
  catcher.respondWith(500);
  const message = await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  expect(catcher.received).toHaveLength(4);
  const failed = await call(emulator, 'GET', `/_emulator/webhooks?state=failed&message=${message.id}`, { key: false });
  expect(failed.body.items).toHaveLength(1);
  expect(
    failed.body.items[0].attempts.map((attempt: { number: number; status: number }) => [
      attempt.number,
      attempt.status,
    ]),
  ).toEqual([
    [1, 500],
    [2, 500],
    [3, 500],
    [4, 500],
  ]);
});

test('webhookRetries changes the number of re-attempts', async () => {
  const { emulator, catcher } = await setup({ webhookRetries: 1 });
  catcher.respondWith(503);
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  expect(catcher.received).toHaveLength(2);
});

test('a receiver that hangs is timed out, tried again, and logged with the timeout', async () => {
  const { emulator, catcher } = await setup({ webhookRetries: 1 });
  catcher.hang();
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  const [event] = emulator.webhooks.list().items;
  expect(event?.state).toBe('failed');
  expect(event?.attempts.map((attempt) => attempt.error)).toEqual(['timeout after 300 ms', 'timeout after 300 ms']);
  catcher.hang(false);
});

test('a refused connection is logged as such on every try', async () => {
  const catcher = await createWebhookCatcher();
  const deadUrl = catcher.url;
  await catcher.close();
  const emulator = makeEmulator({ webhookUrl: deadUrl });
  open.push(emulator);
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  const [event] = emulator.webhooks.list().items;
  expect(event?.state).toBe('failed');
  expect(event?.attempts).toHaveLength(4);
  expect(event?.attempts[0]?.error).toMatch(/ECONNREFUSED/);
});

test('events of one message keep their order even when a try is retried', async () => {
  const { emulator, catcher } = await setup();
  let calls = 0;
  catcher.respondWith(() => (++calls % 2 === 1 ? 500 : 200));
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('5s');
  const accepted = catcher.received.filter((_, index) => index % 2 === 1).map((request) => request.body.status);
  expect(accepted).toEqual(['submitted', 'delivered']);
  expect(catcher.received.map((request) => request.body.status)).toEqual([
    'submitted',
    'submitted',
    'delivered',
    'delivered',
  ]);
});

test('with no webhook URL, events are logged as skipped and nothing is posted', async () => {
  const emulator = makeEmulator();
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('5s');
  expect(emulator.webhooks.list().items.map((event) => event.state)).toEqual(['skipped', 'skipped']);
});

test('an inbound reply is posted as an sms-reply event', async () => {
  const { emulator, catcher } = await setup({ notifyOn: [] });
  const message = await send(emulator, { recipient: ['27831234567'], message: 'Coming?', client_reference: 'rsvp' });
  emulator.replies.inject(message.id, { text: 'Yes' });
  await emulator.webhooks.settled();
  expect(catcher.received).toHaveLength(1);
  expect(catcher.received[0]?.body).toMatchObject({
    type: 'sms-reply',
    message: 'Yes',
    recipient: ['27831234567'],
    client_reference: 'rsvp',
    status: 'delivered',
    credit: 0,
  });
  expect(emulator.webhooks.list().items[0]).toMatchObject({ kind: 'reply', state: 'delivered' });
});

test('the sandbox posts to its own webhook URL', async () => {
  const live = await createWebhookCatcher();
  const sandbox = await createWebhookCatcher();
  const emulator = makeEmulator();
  open.push(live, sandbox, emulator);
  emulator.accounts.update(apiKey, { live: { webhookUrl: live.url }, sandbox: { webhookUrl: sandbox.url } });
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' }, 'sandbox');
  await emulator.clock.advance('5s');
  expect(live.received).toHaveLength(0);
  expect(sandbox.received.map((request) => request.body.status)).toEqual(['submitted', 'delivered']);
  expect(sandbox.received[0]?.body._links.self.href).toContain('/sandbox/v1/messages/');
});

test('a failed event can be redelivered once the receiver is fixed', async () => {
  const { emulator, catcher } = await setup();
  catcher.respondWith(500);
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  const [event] = emulator.webhooks.list({ state: 'failed' }).items;
  catcher.respondWith(200);
  const redelivered = await call(emulator, 'POST', `/_emulator/webhooks/${event?.id}/redeliver`, { key: false });
  expect(redelivered.body).toMatchObject({ state: 'delivered' });
  expect(redelivered.body.attempts.map((attempt: { status: number }) => attempt.status)).toEqual([
    500, 500, 500, 500, 200,
  ]);
  expect((await call(emulator, 'POST', '/_emulator/webhooks/nope/redeliver', { key: false })).status).toBe(404);
});

test('redelivering after the account removed its webhook URL is refused instead of posting to the old URL', async () => {
  const { emulator, catcher } = await setup({ notifyOn: ['delivered'] });
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('5s');
  const [event] = emulator.webhooks.list().items;
  emulator.accounts.update(apiKey, { live: { webhookUrl: null } });
  const redelivered = await call(emulator, 'POST', `/_emulator/webhooks/${event?.id}/redeliver`, { key: false });
  expect(redelivered.body.message).toBe('CONTROL_INVALID_REQUEST');
  expect(catcher.received).toHaveLength(1);
  expect(emulator.webhooks.get(event?.id as string).attempts).toHaveLength(1);
});

test('webhook bodies are signed when a webhook signing secret is set', async () => {
  const { emulator, catcher } = await setup({ webhookSigningSecret: 'hook-secret' });
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  const request = catcher.received[0];
  expect(request?.headers['webhook-signature']).toBe(
    createHmac('sha256', 'hook-secret')
      .update(request?.rawBody ?? '')
      .digest('hex'),
  );
});

test('the duplicate rate is a duplicate behaviour: each notification re-sent once, marked duplicate', async () => {
  const { emulator, catcher } = await setup({ webhookDuplicateRate: 1 });
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('5s');
  expect(catcher.received.map((request) => request.body.status)).toEqual([
    'submitted',
    'submitted',
    'delivered',
    'delivered',
  ]);
  expect(emulator.webhooks.list().items.filter((event) => event.behaviours.includes('duplicate'))).toHaveLength(2);
});

test('the delay rate is a late behaviour: notifications held for webhookDelay on the emulator clock, in order', async () => {
  const { emulator, catcher } = await setup({ webhookDelayRate: 1, webhookDelay: '1m' });
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('5s');
  expect(catcher.received).toHaveLength(0);
  expect(emulator.webhooks.list().items.map((event) => event.state)).toEqual(['delayed', 'delayed']);
  expect(emulator.webhooks.list().items.map((event) => event.behaviours)).toEqual([['late'], ['late']]);
  await emulator.clock.advance('1m');
  expect(catcher.received.map((request) => request.body.status)).toEqual(['submitted', 'delivered']);
});

test("the reorder rate is a reorder behaviour: a leg's submitted notification waits for the message's next one", async () => {
  const { emulator, catcher } = await setup();
  emulator.webhooks.setChaos({ reorderRate: 1 });
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  expect(catcher.received).toHaveLength(0);
  expect(emulator.webhooks.list().items.map((event) => [event.status, event.state, event.behaviours])).toEqual([
    ['submitted', 'delayed', ['reorder']],
  ]);
  await emulator.clock.advance('4s');
  expect(catcher.received.map((request) => request.body.status)).toEqual(['delivered', 'submitted']);
});

test('chaos can be read and changed through the control API; bad rates are refused', async () => {
  const emulator = makeEmulator();
  expect(
    (
      await call(emulator, 'POST', '/_emulator/webhooks/chaos', {
        raw: JSON.stringify({ duplicateRate: 0.5 }),
        key: false,
      })
    ).body,
  ).toMatchObject({
    duplicateRate: 0.5,
  });
  expect(
    (
      await call(emulator, 'POST', '/_emulator/webhooks/chaos', {
        raw: JSON.stringify({ duplicateRate: 2 }),
        key: false,
      })
    ).status,
  ).toBe(400);
  expect((await call(emulator, 'GET', '/_emulator/webhooks/chaos', { key: false })).body.duplicateRate).toBe(0.5);
});

test('a hanging receiver does not hold up API requests', async () => {
  const { emulator, catcher } = await setup({ webhookTimeout: '10s', webhookRetries: 0 });
  catcher.hang();
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  void emulator.clock.advance('1s');
  await catcher.waitFor();
  // While the receiver holds the webhook open, the API keeps answering.
  for (let i = 0; i < 20; i++) {
    const reply = await call(emulator, 'POST', '/v1/messages', {
      body: { recipient: ['27831234567'], message: `m${i}` },
    });
    expect(reply.status).toBe(201);
  }
  expect(emulator.webhooks.list().items[0]?.state).toBe('pending');
  catcher.hang(false);
  await emulator.webhooks.settled();
  expect(emulator.webhooks.list().items[0]?.state).toBe('delivered');
});

test('the catcher records signed sends from a real client too', async () => {
  const catcher = await createWebhookCatcher();
  open.push(catcher);
  const body = { recipient: ['27831234567'], message: 'x' };
  await fetch(catcher.url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { signature: signRequest(body, 's') },
  });
  expect((await catcher.waitFor((request) => request.body.message === 'x')).headers.signature).toBe(
    signRequest(body, 's'),
  );
  await expect(catcher.waitFor((request) => request.body.message === 'never', 50)).rejects.toThrow(
    /no matching request/,
  );
});

test('the log keeps webhookLogLimit events: the oldest finished ones make room, and nothing unfinished is dropped', async () => {
  const emulator = makeEmulator({ webhookLogLimit: 3 });
  for (let i = 0; i < 3; i++) await send(emulator, { recipient: ['27831234567'], message: `m${i}` });
  await emulator.clock.advance('5s');
  const events = emulator.webhooks.list().items;
  expect(events).toHaveLength(3);
  expect(events.every((event) => event.state === 'skipped')).toBe(true);
  // Six events happened (three submitted, then three delivered); the three newest remain.
  expect(events.map((event) => event.status)).toEqual(['delivered', 'delivered', 'delivered']);
});

test('events still being tried are kept even beyond the log limit', async () => {
  const { emulator, catcher } = await setup({ webhookLogLimit: 1, webhookTimeout: '10s', webhookRetries: 0 });
  catcher.hang();
  await send(emulator, { recipient: ['27831234567', '27831234568'], message: 'Hi' });
  void emulator.clock.advance('1s');
  await catcher.waitFor((request) => request.body.recipient[0] === '27831234567');
  expect(emulator.webhooks.list().items.map((event) => event.state)).toEqual(['pending', 'pending']);
  catcher.hang(false);
  await emulator.webhooks.settled();
  expect(emulator.webhooks.list().items).toHaveLength(1);
});

test('close stops a try that hangs and logs it as failed instead of waiting for the timeout', async () => {
  const { emulator, catcher } = await setup({ webhookTimeout: '60s' });
  catcher.hang();
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  void emulator.clock.advance('1s');
  await catcher.waitFor();
  await emulator.close();
  const [event] = emulator.webhooks.list().items;
  expect(event?.state).toBe('failed');
  expect(event?.attempts.map((attempt) => attempt.error)).toEqual(['emulator closed']);
  catcher.hang(false);
});

test('redelivering an event whose account has no webhook URL is refused with a clear error', async () => {
  const emulator = makeEmulator();
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  const [event] = emulator.webhooks.list().items;
  const reply = await call(emulator, 'POST', `/_emulator/webhooks/${event?.id}/redeliver`, { key: false });
  expect(reply.status).toBe(400);
  expect(reply.body).toMatchObject({
    message: 'CONTROL_INVALID_REQUEST',
    description: expect.stringContaining('no live webhook URL'),
  });
  await expect(emulator.webhooks.redeliver(event!.id)).rejects.toThrow(/no live webhook URL/);
});
