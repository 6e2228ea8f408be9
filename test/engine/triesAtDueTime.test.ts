/** A clock move tries each notification at its due time: the clock stands there while the try is made, then moves on. */

import { afterEach, expect, test } from 'vitest';
import { createWebhookCatcher } from '../../src/index.js';
import type { Emulator } from '../../src/index.js';
import { call, makeEmulator, send, startTime } from '../support/api.js';

const start = Date.parse(startTime);
const at = (seconds: number): number => start + seconds * 1000;
/** The emulator's time text (`+02:00`) of `seconds` after the start. */
const shown = (seconds: number): string =>
  new Date(at(seconds) + 2 * 3_600_000).toISOString().replace('.000Z', '+02:00');

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

test('a receiver that reads the clock while handling each webhook sees the time it became due when the clock jumps past it', async () => {
  emulator = makeEmulator({ webhookUrl: 'http://hooks.test/in' });
  const made = emulator;
  const seen: [string, number][] = [];
  made.receiveWebhooksLocally('http://hooks.test/', ({ body }) => {
    seen.push([JSON.parse(body).status, made.clock.now().getTime()]);
    return 200;
  });
  await send(made, { recipient: ['27831234567'], message: 'Hi' });
  await made.clock.advance('1h');

  expect(seen).toEqual([
    ['submitted', at(1)],
    ['delivered', at(5)],
  ]);
  expect(made.clock.now().getTime()).toBe(at(3600));
  const tries = made.webhooks.list().items.map((event) => [event.createdAt, event.attempts.map((a) => a.at)]);
  expect(tries).toEqual([
    [shown(1), [shown(1)]],
    [shown(5), [shown(5)]],
  ]);
});

test("a receiver over HTTP reading a test clock through the control API sees each notification's due time, and the clock moves on after", async () => {
  const catcher = await createWebhookCatcher();
  emulator = makeEmulator();
  const urls = await emulator.listen({ port: 0 });
  const clock = emulator.clocks.create({ startTime });
  emulator.accounts.create({ apiKey: 'pk_due', signingSecret: 'sk_due', webhookUrl: catcher.url, clock: clock.id });
  const read: [string, number][] = [];
  catcher.respondWith(async (request) => {
    const view = (await (await fetch(`${urls.origin}/_emulator/clocks/${clock.id}`)).json()) as { now: number };
    read.push([request.body.status, view.now]);
    return 200;
  });
  try {
    await send(emulator, { recipient: ['27831234567'], message: 'Hi' }, 'live', 'pk_due', 'sk_due');
    const moved = await emulator.clocks.advance(clock.id, '1h');

    expect(read).toEqual([
      ['submitted', at(1)],
      ['delivered', at(5)],
    ]);
    expect(moved.now).toBe(at(3600));
  } finally {
    await catcher.close();
  }
});

test('notifications of several messages arrive in the order they became due within one jump', async () => {
  emulator = makeEmulator({ webhookUrl: 'http://hooks.test/in' });
  const made = emulator;
  const arrived: string[] = [];
  made.receiveWebhooksLocally('http://hooks.test/', ({ body }) => {
    const { recipient, status } = JSON.parse(body);
    arrived.push(`${recipient[0]} ${status}`);
    return 200;
  });
  // Due: early submitted 1s, late submitted 5m, late delivered 5m1s, early delivered 10m1s.
  await call(made, 'POST', '/v1/messages', {
    body: { recipient: ['27830000001'], message: 'early' },
    headers: { 'x-emulator-outcome': 'submitted@1s,delivered@10m' },
  });
  await call(made, 'POST', '/v1/messages', {
    body: { recipient: ['27830000002'], message: 'late' },
    headers: { 'x-emulator-outcome': 'submitted@5m,delivered@1s' },
  });
  await made.clock.advance('1h');

  expect(arrived).toEqual([
    '27830000001 submitted',
    '27830000002 submitted',
    '27830000002 delivered',
    '27830000001 delivered',
  ]);
});

test('re-attempts due inside the jump are tried at their own due time, before the clock moves on', async () => {
  emulator = makeEmulator({ webhookUrl: 'http://hooks.test/in', notifyOn: ['delivered'] });
  const made = emulator;
  const tries: [string | undefined, number][] = [];
  const answers = [500, 503, 200];
  made.receiveWebhooksLocally('http://hooks.test/', ({ headers }) => {
    tries.push([headers['x-emulator-attempt'], made.clock.now().getTime()]);
    return answers.shift() ?? 200;
  });
  await send(made, { recipient: ['27831234567'], message: 'Hi' });
  await made.clock.advance('1d');

  expect(tries).toEqual([
    ['1', at(5)],
    ['2', at(5)],
    ['3', at(5)],
  ]);
  const [event] = made.webhooks.list().items;
  expect(event?.attempts.map((attempt) => [attempt.at, attempt.status])).toEqual([
    [shown(5), 500],
    [shown(5), 503],
    [shown(5), 200],
  ]);
});

test('a notification held late is tried, re-attempts included, when its hold ends inside the jump', async () => {
  emulator = makeEmulator({ webhookUrl: 'http://hooks.test/in', notifyOn: ['delivered'] });
  const made = emulator;
  made.scenario.set({ version: 1, webhooks: [{ behaviour: 'late', after: '6h' }] });
  const seen: number[] = [];
  const answers = [500, 200];
  made.receiveWebhooksLocally('http://hooks.test/', () => {
    seen.push(made.clock.now().getTime());
    return answers.shift() ?? 200;
  });
  await send(made, { recipient: ['27831234567'], message: 'Hi' });
  await made.clock.advance('1d');

  expect(seen).toEqual([at(5 + 6 * 3600), at(5 + 6 * 3600)]);
  expect(made.clock.now().getTime()).toBe(at(86_400));
});
