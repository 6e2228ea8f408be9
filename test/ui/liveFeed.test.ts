/** The inbox's live stream (Server-Sent Events): state first, coalesced updates, no leaked listeners, clean close. */

import { afterEach, expect, test, vi } from 'vitest';
import { request as httpRequest } from 'node:http';
import type { Emulator } from '../../src/index.js';
import { environments, finalStatuses } from '../../src/domain/message.js';
import { EmulatorEmitter } from '../../src/events.js';
import { LiveFeed, maxOpenStreams } from '../../src/ui/liveFeed.js';
import type { FeedViews } from '../../src/ui/feedViews.js';
import { listen, nodeListener } from '../../src/http/server.js';
import { makeEmulator, origin, send } from '../support/api.js';
import { readEvents } from '../support/sse.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

function emulator(options = {}): Emulator {
  const made = makeEmulator(options);
  open.push(made);
  return made;
}

const stream = (made: Emulator, query = '') => made.fetch(new Request(`${origin}/_emulator/ui/events${query}`));

test('the stream opens with the current state, then pushes a sent message and its status changes without polling', async () => {
  const made = emulator();
  const response = await stream(made);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const events = readEvents(response);
  const first = await events.next();
  expect(first.event).toBe('state');
  expect(first.data.messages).toEqual([]);
  expect(first.data.clock.mode).toBe('manual');

  const sent = await send(made, { recipient: ['27831234567'], message: 'Ça coûte 5€' });
  const created = await events.next();
  expect(created.event).toBe('update');
  expect(created.data.messages[0]).toMatchObject({
    id: sent.id,
    status: 'pending',
    encoding: 'UCS-2',
    ucs2_trigger: 'û',
    segments: 1,
  });
  expect(created.data.accounts[0].live.balance).toBe(999);

  await made.clock.advance('5s');
  const moved = await events.until((update) => update.messages.some((message: any) => message.status === 'delivered'));
  expect(moved.data.clock.now).toBe(Date.parse('2026-11-21T10:00:05Z'));
  await events.cancel();
});

test('the state names the shared lists the page draws its choices from, as the domain defines them', async () => {
  const events = readEvents(await stream(emulator()));
  const first = await events.next();
  expect(first.data.lists).toEqual({ environments: [...environments], finalStatuses: [...finalStatuses] });
  await events.cancel();
});

test('a webhook skipped for want of a URL shows on the stream at once, as emulator.on hears it', async () => {
  const made = emulator();
  const heard: string[] = [];
  made.on('webhook.settled', ({ event }) => heard.push(event.state));
  const events = readEvents(await stream(made));
  await events.next();
  await send(made, { recipient: ['27831234567'], message: 'nobody listens' });
  await made.clock.advance('1s');
  const skipped = await events.until((update) => update.webhooks.some((event: any) => event.state === 'skipped'));
  expect(skipped.data.webhooks[0]).toMatchObject({ status: 'submitted', url: null, state: 'skipped' });
  expect(heard).toEqual(['skipped']);
  await events.cancel();
});

test('a burst of sends in one turn of the event loop becomes one update with each message once', async () => {
  const made = emulator();
  const events = readEvents(await stream(made));
  await events.next();
  await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      send(made, { recipient: [`2783100${String(i).padStart(4, '0')}`], message: `n${i}` }),
    ),
  );
  const seen = new Set<string>();
  let updates = 0;
  while (seen.size < 50) {
    const update = await events.next();
    updates += 1;
    for (const message of update.data.messages) seen.add(message.id);
  }
  expect(updates).toBeLessThan(50);
  await events.cancel();
});

test('a reset pushes a fresh state so pages drop what no longer exists', async () => {
  const made = emulator();
  await send(made, { recipient: ['27831234567'], message: 'before' });
  const events = readEvents(await stream(made));
  expect((await events.next()).data.messages).toHaveLength(1);
  made.reset();
  const next = await events.next();
  expect(next.event).toBe('state');
  expect(next.data.messages).toEqual([]);
  await events.cancel();
});

test('a page that disconnects stops the feed listening to the engine', async () => {
  const subscriptions = new Set<string>();
  const real = new EmulatorEmitter();
  const emitter = {
    on: (name: string, listener: never) => {
      const stop = real.on(name as never, listener);
      const id = `${name}#${Math.random()}`;
      subscriptions.add(id);
      return () => {
        subscriptions.delete(id);
        stop();
      };
    },
  } as unknown as EmulatorEmitter;
  const views: FeedViews = { state: () => ({}) as never, update: () => ({}) as never };
  const feed = new LiveFeed(emitter, views);
  const server = await listen(nodeListener({ fetch: (request) => feed.open(request.signal) }), '127.0.0.1', 0);
  open.push(server);
  const connected = new Promise<() => void>((resolve) => {
    const request = httpRequest({ host: '127.0.0.1', port: server.port, path: '/' }, (response) => {
      response.once('data', () => resolve(() => request.destroy()));
    });
    request.end();
  });
  const disconnect = await connected;
  expect(feed.size).toBe(1);
  expect(subscriptions.size).toBeGreaterThan(0);
  disconnect();
  await vi.waitFor(() => expect(feed.size).toBe(0));
  expect(subscriptions.size).toBe(0);
});

test('at most maxOpenStreams streams are open in a process, all emulators together; the next is TOO_MANY_REQUESTS with Retry-After', async () => {
  const [first, second] = [emulator(), emulator()];
  const streams = [];
  for (let i = 0; i < maxOpenStreams; i++) {
    const response = await stream(i % 2 === 0 ? first : second);
    expect(response.status).toBe(200);
    streams.push(readEvents(response));
  }
  const refused = await stream(second);
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toBe('5');
  expect(await refused.json()).toMatchObject({
    message: 'TOO_MANY_REQUESTS',
    description: expect.stringContaining('close an inbox page'),
  });
  await streams.pop()?.cancel();
  const again = readEvents(await stream(first));
  expect((await again.next()).event).toBe('state');
  await again.cancel();
  await first.close();
  const afterClose = readEvents(await stream(second));
  expect((await afterClose.next()).event).toBe('state');
  for (const events of [...streams, afterClose]) await events.cancel();
});

test('emulator.close() ends open streams so the server can stop', async () => {
  const made = makeEmulator();
  const events = readEvents(await stream(made));
  await events.next();
  await made.close();
  await expect(events.done()).resolves.toBe(true);
});

test('with a control token the stream takes it as ?token= and refuses a wrong or missing one', async () => {
  const made = emulator({ controlToken: 'secret-token' });
  expect((await stream(made)).status).toBe(401);
  expect((await stream(made, '?token=wrong')).status).toBe(401);
  const response = await stream(made, '?token=secret-token');
  expect(response.status).toBe(200);
  await response.body?.cancel();
});
