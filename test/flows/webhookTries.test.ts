/** Webhook tries against receivers that misbehave: hang, answer too slowly, close mid-answer, redirect; and a GC during a hanging try. */

import { spawnSync } from 'node:child_process';
import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { createWebhookCatcher, type EmulatorOptions } from '../../src/index.js';
import { makeEmulator, send } from '../support/api.js';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

/** A receiver on a free port that reads each request, then hands the response to `answer`. */
async function receiver(answer: (response: ServerResponse) => void): Promise<{ url: string; posts: number }> {
  const state = { url: '', posts: 0 };
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      state.posts += 1;
      answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  });
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return state;
}

function emulatorFor(url: string, options: EmulatorOptions = {}) {
  const emulator = makeEmulator({ webhookUrl: url, webhookTimeout: '200ms', ...options });
  open.push(emulator);
  return emulator;
}

const summary = (emulator: ReturnType<typeof emulatorFor>) =>
  emulator.webhooks.list().items.map((event) => ({
    status: event.status,
    state: event.state,
    errors: event.attempts.map((attempt) => attempt.error ?? attempt.status),
  }));

test('a receiver that hangs gets exactly four tries per event, and every event of the message ends failed', async () => {
  const catcher = await createWebhookCatcher();
  open.push(catcher);
  catcher.hang();
  const emulator = emulatorFor(catcher.url);
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.runUntilIdle();
  const timeout = 'timeout after 200 ms';
  expect(summary(emulator)).toEqual([
    { status: 'submitted', state: 'failed', errors: [timeout, timeout, timeout, timeout] },
    { status: 'delivered', state: 'failed', errors: [timeout, timeout, timeout, timeout] },
  ]);
  expect(catcher.received).toHaveLength(8);
  catcher.hang(false);
});

test('an answer whose body is still coming when the timeout passes counts as a failed try', async () => {
  // Headers (200) at once, the body never finishes: fetch resolved on the headers and called this delivered.
  const slow = await receiver((response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('still writing');
  });
  const emulator = emulatorFor(slow.url, { webhookRetries: 1 });
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  expect(summary(emulator)).toEqual([
    { status: 'submitted', state: 'failed', errors: ['timeout after 200 ms', 'timeout after 200 ms'] },
  ]);
  expect(slow.posts).toBe(2);
});

test('a receiver that closes the connection mid-response is a failed try, and the next try goes out', async () => {
  let answered = 0;
  const flaky = await receiver((response) => {
    answered += 1;
    if (answered > 1) return void response.writeHead(200).end('ok');
    response.writeHead(200, { 'content-length': '100' });
    response.write('partial', () => response.socket?.destroy());
  });
  const emulator = emulatorFor(flaky.url);
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  expect(summary(emulator)).toEqual([
    { status: 'submitted', state: 'delivered', errors: ['connection closed mid-response', 200] },
  ]);
});

test('a redirect is a failed try and is not followed', async () => {
  const target = await createWebhookCatcher();
  open.push(target);
  const redirecting = await receiver((response) => response.writeHead(302, { location: target.url }).end());
  const emulator = emulatorFor(redirecting.url);
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');
  expect(summary(emulator)).toEqual([{ status: 'submitted', state: 'failed', errors: [302, 302, 302, 302] }]);
  expect(target.received).toHaveLength(0);
});

test('a garbage collection while a try hangs does not lose its timeout (own process, --expose-gc, built dist)', () => {
  const script = fileURLToPath(new URL('../fixtures/scripts/gcDuringHang.mjs', import.meta.url));
  const run = spawnSync(process.execPath, ['--expose-gc', script], { encoding: 'utf8', timeout: 60_000 });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual({
    gcRuns: expect.any(Number),
    events: [
      { status: 'submitted', state: 'failed', tries: 4 },
      { status: 'delivered', state: 'failed', tries: 4 },
    ],
  });
  expect(run.status).toBe(0);
}, 90_000);

test('tries beyond the connections a receiver gets wait for a free one, and their timeout runs from then: every try reaches the receiver', async () => {
  const catcher = await createWebhookCatcher();
  open.push(catcher);
  catcher.hang();
  // 300 tries due at once against 256 connections that all hang: the 44 beyond used to time out unsent.
  // A timeout long enough for the in-process receiver to read 300 requests on a busy machine.
  const emulator = emulatorFor(catcher.url, { webhookRetries: 0, notifyOn: ['submitted'], webhookTimeout: '3s' });
  for (let i = 0; i < 300; i++) await send(emulator, { recipient: ['27831234567'], message: `m${i}` });
  await emulator.clock.advance('1s');
  expect(catcher.received).toHaveLength(300);
  const events = emulator.webhooks.list({ limit: 1000 }).items;
  expect(events.map((event) => event.attempts.map((attempt) => attempt.error))).toEqual(
    Array(300).fill(['timeout after 3000 ms']),
  );
  catcher.hang(false);
});
