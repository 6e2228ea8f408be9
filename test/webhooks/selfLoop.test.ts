/** No webhook into the emulator's own routes: refused where a URL is set, not made at delivery, redeliveries capped and kept to their world. */

import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { afterEach, expect, test } from 'vitest';
import { type Emulator, createWebhookCatcher } from '../../src/index.js';
import { maxRedeliveries } from '../../src/domain/webhookEvent.js';
import { apiKey, call, control, makeEmulator, send } from '../support/api.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** A port free a moment ago: what a URL names before the emulator takes it. */
function freePort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    }),
  );
}

async function listening(
  options: Parameters<typeof makeEmulator>[0] = {},
): Promise<{ emulator: Emulator; port: number }> {
  const emulator = makeEmulator(options);
  open.push(emulator);
  const { port } = await emulator.listen({ port: 0 });
  return { emulator, port };
}

/** The redeliver route of `event` on `port` under each loopback name and the machine's own name. */
const selfUrls = (port: number, event = 'e'): string[] =>
  ['127.0.0.1', '127.0.0.2', 'localhost', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0', '[::]', hostname()].map(
    (host) => `http://${host}:${port}/_emulator/webhooks/${event}/redeliver`,
  );

test('a webhook URL naming the emulator itself is refused on account create and update, and changes nothing', async () => {
  const { emulator, port } = await listening();
  for (const url of selfUrls(port)) {
    expect(() => emulator.accounts.create({ apiKey: 'pk_test_loop', webhookUrl: url }), url).toThrow(
      /WEBHOOK_URL_IS_EMULATOR/,
    );
    expect(() => emulator.accounts.create({ apiKey: 'pk_test_loop', sandboxWebhookUrl: url }), url).toThrow(
      /WEBHOOK_URL_IS_EMULATOR: Refused: the sandbox webhook URL's address/,
    );
    expect(() => emulator.accounts.update(apiKey, { live: { balance: 5, webhookUrl: url } }), url).toThrow(
      /WEBHOOK_URL_IS_EMULATOR/,
    );
  }
  expect(emulator.accounts.list().items.map((account) => account.apiKey)).toEqual([apiKey]);
  expect(emulator.accounts.get(apiKey).live).toMatchObject({ balance: 1000, webhookUrl: null });
  // An app on another loopback port is another program.
  const app = `http://127.0.0.1:${port === 65535 ? 1 : port + 1}/hooks`;
  expect(emulator.accounts.update(apiKey, { live: { webhookUrl: app } }).live.webhookUrl).toBe(app);
});

test('the same URL is refused in a world, a snapshot, a scenario and a receiver check, over HTTP too, and changes nothing', async () => {
  const { emulator, port } = await listening();
  const [url] = selfUrls(port) as [string];
  const clocks = emulator.clocks.list().items.length;
  expect(() => emulator.worlds.create({ account: { webhookUrl: url } })).toThrow(/WEBHOOK_URL_IS_EMULATOR/);
  expect(emulator.clocks.list().items).toHaveLength(clocks);

  await send(emulator, { recipient: ['27831234567'], message: 'kept' });
  const snapshot = emulator.snapshot();
  const hostile = structuredClone(snapshot);
  (hostile.accounts[0] as { sandbox: { webhookUrl: string } }).sandbox.webhookUrl = url;
  hostile.messages = [];
  expect(() => emulator.restore(hostile)).toThrow(/WEBHOOK_URL_IS_EMULATOR/);
  expect(emulator.messages.list().items).toHaveLength(1);

  const before = emulator.scenario.get();
  expect(() => emulator.scenario.set({ version: 1, accounts: [{ apiKey: 'pk_test_loop', webhookUrl: url }] })).toThrow(
    /WEBHOOK_URL_IS_EMULATOR/,
  );
  expect(() =>
    emulator.scenario.set({ version: 1, timeline: [{ at: '1m', webhookUrl: { url, environment: 'live' } }] } as never),
  ).toThrow(/WEBHOOK_URL_IS_EMULATOR: Refused: the timeline webhook URL/);
  expect(emulator.scenario.get()).toEqual(before);

  await expect(emulator.receiverCheck({ receiver: url })).rejects.toThrow(/WEBHOOK_URL_IS_EMULATOR/);
  await expect(
    emulator.receiverCheck({ receiver: 'http://127.0.0.1:1/hooks', state: `http://localhost:${port}/_emulator/{id}` }),
  ).rejects.toThrow(/WEBHOOK_URL_IS_EMULATOR: Refused: the state hook/);

  const patch = await control(emulator, 'PATCH', `/accounts/${apiKey}`, { live: { webhookUrl: url } });
  expect(patch).toMatchObject({ status: 400, body: { message: 'WEBHOOK_URL_IS_EMULATOR' } });
  expect(patch.body.description).toContain(`http://127.0.0.1:${port} is this emulator itself`);
});

test("publicUrl's origin is the emulator on any port, refused even before it listens, at start-up too", () => {
  const emulator = makeEmulator({ publicUrl: 'https://sms.example.test/' });
  open.push(emulator);
  expect(() => emulator.accounts.create({ apiKey: 'pk_test_loop', webhookUrl: 'https://sms.example.test/x' })).toThrow(
    /WEBHOOK_URL_IS_EMULATOR/,
  );
  expect(() =>
    makeEmulator({ publicUrl: 'https://sms.example.test/', webhookUrl: 'https://sms.example.test/x' }),
  ).toThrow(/WEBHOOK_URL_IS_EMULATOR/);
});

test('a URL that becomes the emulator after it was set (the port it then listens on) is not posted to: one try, failed, saying why', async () => {
  const port = await freePort();
  const emulator = makeEmulator({ webhookUrl: `http://localhost:${port}/_emulator/health` });
  open.push(emulator);
  await emulator.listen({ port });
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('5s');
  const events = emulator.webhooks.list({ message: sent.id }).items;
  expect(events.map((event) => [event.status, event.state, event.attempts.length])).toEqual([
    ['submitted', 'failed', 1],
    ['delivered', 'failed', 1],
  ]);
  expect(events[0]?.attempts[0]?.error).toMatch(
    new RegExp(
      `^not sent: localhost:${port} \\(127\\.0\\.0\\.1\\) is this emulator itself: a post there would reach its own routes`,
    ),
  );
});

test('probe: one redeliver of an event whose URL is its own redeliver route (set before the port was the emulator) makes one try, not a loop', async () => {
  const port = await freePort();
  const emulator = makeEmulator({ webhookRetries: 3 });
  open.push(emulator);
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('5s');
  const [event] = emulator.webhooks.list({ message: sent.id }).items;
  const id = event?.id as string;
  emulator.accounts.update(apiKey, {
    live: { webhookUrl: `http://127.0.0.1:${port}/_emulator/webhooks/${id}/redeliver` },
  });
  await emulator.listen({ port });
  const again = await emulator.webhooks.redeliver(id);
  expect(again.state).toBe('failed');
  expect(again.attempts).toHaveLength(1);
  expect(again.attempts[0]?.error).toMatch(/is this emulator itself/);
  // The same over the control API: the answer comes back, with the one try.
  const overHttp = await control(emulator, 'POST', `/webhooks/${id}/redeliver`);
  expect(overHttp.status).toBe(200);
  expect(overHttp.body.attempts).toHaveLength(2);
});

test(`one event is redelivered ${maxRedeliveries} times at most; the next is refused and changes nothing`, async () => {
  const catcher = await createWebhookCatcher();
  open.push(catcher);
  const { emulator } = await listening({ webhookUrl: catcher.url, notifyOn: ['delivered'] });
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('5s');
  const id = emulator.webhooks.list({ message: sent.id }).items[0]?.id as string;
  for (let i = 0; i < maxRedeliveries; i++) await emulator.webhooks.redeliver(id);
  expect(catcher.received).toHaveLength(1 + maxRedeliveries);
  await expect(emulator.webhooks.redeliver(id)).rejects.toThrow(/WEBHOOK_REDELIVERY_LIMIT/);
  const refused = await control(emulator, 'POST', `/webhooks/${id}/redeliver`);
  expect(refused).toMatchObject({ status: 409, body: { message: 'WEBHOOK_REDELIVERY_LIMIT' } });
  expect(emulator.webhooks.get(id).attempts).toHaveLength(1 + maxRedeliveries);
  expect(catcher.received).toHaveLength(1 + maxRedeliveries);
});

test('changing the webhook URL stops the old URL’s remaining tries: logged as not tried, the event failed; a redelivery goes to the new one', async () => {
  const [old, next] = [await createWebhookCatcher(), await createWebhookCatcher()];
  open.push(old, next);
  const { emulator } = await listening({ webhookUrl: old.url, notifyOn: ['delivered'], webhookRetries: 3 });
  old.respondWith(() => {
    emulator.accounts.update(apiKey, { live: { webhookUrl: next.url } });
    return 500;
  });
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('5s');
  const [event] = emulator.webhooks.list({ message: sent.id }).items;
  expect(old.received).toHaveLength(1);
  expect(next.received).toHaveLength(0);
  expect(event?.state).toBe('failed');
  expect(event?.attempts.map((attempt) => [attempt.url, attempt.status ?? attempt.error])).toEqual([
    [old.url, 500],
    [old.url, expect.stringMatching(/^not tried: the webhook URL changed/)],
  ]);
  const again = await emulator.webhooks.redeliver(event?.id as string);
  expect(again.state).toBe('delivered');
  expect(next.received).toHaveLength(1);
});

test("a redeliver that is one world's webhook relayed back is refused for another world's event, and allowed for its own", async () => {
  const catcher = await createWebhookCatcher();
  open.push(catcher);
  const { emulator } = await listening({ notifyOn: ['delivered'] });
  const worlds = [1, 2].map(() => emulator.worlds.create({ account: { webhookUrl: catcher.url } }));
  const events: string[] = [];
  for (const { account, clock } of worlds) {
    const answer = await call(emulator, 'POST', '/v1/messages', {
      body: { recipient: ['27831234567'], message: 'Hi' },
      key: account.apiKey,
      sign: account.signingSecret,
    });
    await emulator.clocks.advance(clock.id, '5s');
    events.push(emulator.webhooks.list({ message: answer.body.id }).items[0]?.id as string);
  }
  const [mine, theirs] = events as [string, string];
  const relayed = (event: string, from: string) =>
    control(emulator, 'POST', `/webhooks/${event}/redeliver`, undefined, { 'x-emulator-event-id': from });
  expect(await relayed(theirs, mine)).toMatchObject({ status: 403, body: { message: 'WEBHOOK_OTHER_WORLD' } });
  expect(await relayed(theirs, 'no-such-event')).toMatchObject({
    status: 403,
    body: { message: 'WEBHOOK_OTHER_WORLD' },
  });
  expect(emulator.webhooks.get(theirs).attempts).toHaveLength(1);
  expect((await relayed(mine, mine)).status).toBe(200);
  expect((await control(emulator, 'POST', `/webhooks/${theirs}/redeliver`)).status).toBe(200);
});
