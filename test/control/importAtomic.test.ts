/**
 * A snapshot import over HTTP is all or nothing against the API: a request that arrives (or resumes after waiting) while
 * the import puts its state in place is refused with SNAPSHOT_IMPORT_RUNNING, health still answers, no clock fires in
 * a half-replaced state, and the state the import leaves is exactly the snapshot.
 */

import { afterEach, expect, test, vi } from 'vitest';
import { type Emulator, type Snapshot, signRequest } from '../../src/index.js';
import { Store } from '../../src/state/store.js';
import { WallTimers } from '../../src/state/wallTimers.js';
import { apiKey, basic, call, makeEmulator, origin, type Reply, send, signingSecret } from '../support/api.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await emulator?.close();
  emulator = undefined;
});

const sendBody = { recipient: ['27831234567'], message: 'Sent while the state was being replaced' };
const troubled = '27830000000';

/** An exported snapshot grown to `count` messages (the one sent, copied under fresh ids), then one more send, so the state differs from it. */
async function grownSnapshot(on: Emulator, count: number): Promise<Snapshot> {
  await send(on, { recipient: ['27831234567'], message: 'Hello' });
  const snapshot = on.snapshot();
  const [message] = snapshot.messages;
  snapshot.messages = Array.from({ length: count }, (_, index) => ({ ...message!, id: `copy-${index}` }));
  await send(on, { recipient: ['27831234567'], message: 'After the export' });
  return snapshot;
}

function put(on: Emulator, snapshot: Snapshot): Promise<Response> {
  return on.fetch(new Request(`${origin}/_emulator/snapshot`, { method: 'PUT', body: JSON.stringify(snapshot) }));
}

/** Runs `during` once, when the import puts its first message in place: the old state is gone, half the new one is there. */
function whenHalfInPlace(during: () => void): void {
  const addMessage = Store.prototype.addMessage;
  let done = false;
  vi.spyOn(Store.prototype, 'addMessage').mockImplementation(function (this: Store, ...args) {
    if (!done) {
      done = true;
      during();
    }
    return addMessage.apply(this, args);
  });
}

/** The state as the import left it: exported the moment it says the state was replaced, before anything after it runs. */
function stateWhenReplaced(on: Emulator): () => Snapshot | undefined {
  let replaced: Snapshot | undefined;
  on.on('state.replaced', () => (replaced = on.snapshot()));
  return () => replaced;
}

async function expectRefused(answer: Promise<Reply | Response>): Promise<void> {
  const reply = await answer;
  const body = reply instanceof Response ? await reply.json() : reply.body;
  expect(reply.status).toBe(503);
  expect(reply.headers.get('retry-after')).toBe('1');
  expect(body).toMatchObject({ message: 'SNAPSHOT_IMPORT_RUNNING' });
}

/** A signed send whose body arrives in two halves: the second when `rest()` is called. */
function sendInHalves(on: Emulator, fields = sendBody): { answer: Promise<Response>; rest: () => void } {
  const bytes = new TextEncoder().encode(JSON.stringify(fields));
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (given) => void (controller = given) });
  controller.enqueue(bytes.subarray(0, 10));
  const answer = on.fetch(
    new Request(`${origin}/v1/messages`, {
      method: 'POST',
      body,
      headers: {
        authorization: basic(apiKey),
        'content-type': 'application/json',
        signature: signRequest(fields, signingSecret),
      },
      ...({ duplex: 'half' } as RequestInit),
    }),
  );
  return {
    answer,
    rest: () => {
      controller.enqueue(bytes.subarray(10));
      controller.close();
    },
  };
}

test('API and control requests that arrive while a snapshot import puts its state in place are refused with SNAPSHOT_IMPORT_RUNNING and Retry-After, health is answered, and the state it leaves is exactly the snapshot', async () => {
  emulator = makeEmulator({ balance: 1_000 });
  const on = emulator;
  const snapshot = await grownSnapshot(on, 2_000);
  const replaced = stateWhenReplaced(on);
  const racing: Promise<Reply>[] = [];
  let health: Promise<Reply> | undefined;
  whenHalfInPlace(() => {
    for (let client = 0; client < 6; client++) racing.push(call(on, 'POST', '/v1/messages', { body: sendBody }));
    racing.push(call(on, 'POST', '/sandbox/v1/messages', { body: sendBody }));
    racing.push(call(on, 'GET', '/v1/messages/balance'));
    racing.push(call(on, 'GET', '/_emulator/messages', { key: false }));
    racing.push(call(on, 'POST', '/_emulator/clock', { body: { advance: '1h' }, key: false }));
    racing.push(call(on, 'GET', '/_emulator/report?format=json', { key: false }));
    health = call(on, 'GET', '/_emulator/health', { key: false });
  });
  const imported = await put(on, snapshot);
  expect(imported.status).toBe(200);
  expect(racing).toHaveLength(11);
  for (const answer of racing) await expectRefused(answer);
  expect((await health)?.status).toBe(200);
  expect(replaced()).toEqual(snapshot);
  expect(on.snapshot()).toEqual(snapshot);
});

test('a send whose body is still arriving when an import begins putting its state in place is refused once it arrives, and changes nothing', async () => {
  emulator = makeEmulator({ balance: 1_000 });
  const snapshot = await grownSnapshot(emulator, 2_000);
  const replaced = stateWhenReplaced(emulator);
  const late = sendInHalves(emulator);
  whenHalfInPlace(late.rest);
  expect((await put(emulator, snapshot)).status).toBe(200);
  await expectRefused(late.answer);
  expect(replaced()).toEqual(snapshot);
});

test('a send held by a fault matching its recipient, whose body arrives during an import, is refused and changes nothing', async () => {
  emulator = makeEmulator({
    balance: 1_000,
    scenario: { version: 1, faults: [{ match: { recipient: troubled }, error: { status: 500 } }] },
  });
  const snapshot = await grownSnapshot(emulator, 2_000);
  const replaced = stateWhenReplaced(emulator);
  // Were its fault judged during the import, it would answer the fault's 500 and count in the timeline.
  const late = sendInHalves(emulator, { recipient: [troubled], message: 'To a number in trouble' });
  whenHalfInPlace(late.rest);
  expect((await put(emulator, snapshot)).status).toBe(200);
  await expectRefused(late.answer);
  expect(replaced()).toEqual(snapshot);
});

test('a balance read whose injected latency ends while an import puts its state in place is refused rather than read half a state', async () => {
  emulator = makeEmulator({
    balance: 1_000,
    scenario: { version: 1, faults: [{ match: { operation: 'balance' }, latency: '10s' }] },
  });
  const snapshot = await grownSnapshot(emulator, 2_000);
  const replaced = stateWhenReplaced(emulator);
  // The latency ends when the test says so: at the import's first message put in place.
  let endLatency!: () => void;
  vi.spyOn(WallTimers.prototype, 'sleep').mockImplementation(() => new Promise((resolve) => (endLatency = resolve)));
  const held = call(emulator, 'GET', '/v1/messages/balance');
  whenHalfInPlace(() => endLatency());
  expect((await put(emulator, snapshot)).status).toBe(200);
  await expectRefused(held);
  expect(replaced()).toEqual(snapshot);
});

test('sends from many clients over a socket racing an import never survive it: each is made before it (and replaced) or refused, and none is charged in the state it leaves', async () => {
  emulator = makeEmulator({ balance: 1_000_000 });
  const on = emulator;
  const snapshot = await grownSnapshot(on, 5_000);
  const { origin: address } = await on.listen({ host: '127.0.0.1', port: 0 });
  const replaced = stateWhenReplaced(on);
  const statuses: number[] = [];
  let importing = true;
  const client = async (): Promise<void> => {
    const body = JSON.stringify(sendBody);
    const headers = {
      authorization: basic(apiKey),
      'content-type': 'application/json',
      signature: signRequest(sendBody, signingSecret),
    };
    while (importing) {
      const answer = await fetch(`${address}/v1/messages`, { method: 'POST', headers, body });
      const { message } = (await answer.json()) as { message?: string };
      statuses.push(answer.status);
      if (answer.status !== 201) {
        expect(answer.status).toBe(503);
        expect(message).toBe('SNAPSHOT_IMPORT_RUNNING');
        expect(answer.headers.get('retry-after')).toBe('1');
      }
    }
  };
  const clients = Array.from({ length: 6 }, client);
  const imported = await fetch(`${address}/_emulator/snapshot`, { method: 'PUT', body: JSON.stringify(snapshot) });
  importing = false;
  await Promise.all(clients);
  expect(imported.status).toBe(200);
  expect(statuses.length).toBeGreaterThan(0);
  expect(replaced()).toEqual(snapshot);
}, 60_000);

test('a realtime clock fires no timer of a snapshot while it is put in place: every leg moves after the import replaced the state', async () => {
  const source = makeEmulator({ balance: 1_000 });
  await send(source, { recipient: ['27831234567'], message: 'Pending' });
  const snapshot = source.snapshot();
  await source.close();
  const [message] = snapshot.messages;
  snapshot.messages = Array.from({ length: 2_000 }, (_, index) => ({ ...message!, id: `copy-${index}` }));
  // Every leg's next step is due within seconds of the snapshot's time: milliseconds of wall time at this speed.
  snapshot.clock = { ...snapshot.clock, mode: 'realtime', speed: 100_000 };
  emulator = makeEmulator();
  const order: string[] = [];
  emulator.on('leg.status', () => order.push('leg'));
  emulator.on('state.replaced', () => order.push('replaced'));
  const moved = new Promise<void>((resolve) => emulator!.on('leg.status', () => resolve()));
  expect((await put(emulator, snapshot)).status).toBe(200);
  await moved;
  expect(order[0]).toBe('replaced');
});
