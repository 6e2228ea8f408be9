/**
 * A snapshot import takes its body as it arrives, a bounded slice of work between turns of the event loop: it never
 * reads the body ahead of its parse, refuses what is wrong near the start without reading the rest, puts a bounded
 * number of messages in place per turn, and answers exactly what a check of the whole snapshot answers.
 */

import { afterEach, expect, test, vi } from 'vitest';
import type { Emulator, Snapshot } from '../../src/index.js';
import type { ApiError } from '../../src/domain/errors.js';
import { slicer, stepsPerSlice } from '../../src/http/slicedJson.js';
import { parseSnapshotInSlices } from '../../src/state/snapshot.js';
import { makeEmulator, send } from '../support/api.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** An exported snapshot grown to `count` delivered messages: the one message sent, copied under fresh ids. */
async function grownSnapshot(source: Emulator, count: number): Promise<Snapshot> {
  await send(source, { recipient: ['27831234567'], message: 'Hello' });
  await source.clock.advance('10s');
  const snapshot = source.snapshot();
  const [message] = snapshot.messages;
  snapshot.messages = Array.from({ length: count }, (_, index) => ({ ...message!, id: `copy-${index}` }));
  return snapshot;
}

/** A request body that hands out `chunkBytes` at a time as it is read, counting what was read so far. */
function trickle(chunks: () => Uint8Array | undefined): { body: ReadableStream<Uint8Array>; read: () => number } {
  let read = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks();
      if (chunk === undefined) return controller.close();
      read += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { body, read: () => read };
}

function chunksOf(text: string, chunkBytes: number): () => Uint8Array | undefined {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return () => {
    if (offset >= bytes.length) return undefined;
    const chunk = bytes.slice(offset, offset + chunkBytes);
    offset += chunk.byteLength;
    return chunk;
  };
}

function put(target: Emulator, body: ReadableStream<Uint8Array> | string): Promise<Response> {
  return target.fetch(
    new Request('http://emulator.test/_emulator/snapshot', {
      method: 'PUT',
      body,
      ...({ duplex: 'half' } as RequestInit),
    }),
  );
}

/**
 * Samples `value()` at every turn of the event loop (a setImmediate that sets up the next) until stopped: the largest
 * growth from one turn to the next, and how many turns there were.
 */
function perTurn(value: () => number): () => { most: number; turns: number } {
  let last = value();
  let most = 0;
  let turns = 0;
  let running = true;
  const tick = (): void => {
    const now = value();
    most = Math.max(most, now - last);
    last = now;
    turns += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return () => {
    running = false;
    tick();
    return { most, turns };
  };
}

test('a snapshot import reads its body only as its parse goes: between two turns of the event loop it reads a few hundred kilobytes at most', async () => {
  emulator = makeEmulator({ balance: 1_000_000 });
  const text = JSON.stringify(await grownSnapshot(emulator, 10_000));
  const { body, read } = trickle(chunksOf(text, 16 * 1024));
  const stop = perTurn(read);
  const answer = await put(emulator, body);
  const { most, turns } = stop();
  expect(answer.status).toBe(200);
  expect(read()).toBe(Buffer.byteLength(text));
  // A slice parses at most stepsPerSlice values (here: messages of about 640 bytes each), plus the chunks read ahead.
  const elementBytes = Buffer.byteLength(text) / 10_000;
  expect(most).toBeLessThanOrEqual(stepsPerSlice * elementBytes + 4 * 16 * 1024);
  expect(turns).toBeGreaterThanOrEqual(Buffer.byteLength(text) / (stepsPerSlice * elementBytes + 4 * 16 * 1024));
  expect(emulator.messages.list().total).toBe(10_000);
}, 60_000);

test('a snapshot import never decodes or parses its body as one string: no text it reads is longer than 64 kB', async () => {
  emulator = makeEmulator({ balance: 1_000_000 });
  const text = JSON.stringify(await grownSnapshot(emulator, 10_000));
  let longest = 0;
  const decode = TextDecoder.prototype.decode;
  const decodeSpy = vi.spyOn(TextDecoder.prototype, 'decode').mockImplementation(function (
    this: unknown,
    ...args: Parameters<typeof decode>
  ) {
    longest = Math.max(longest, args[0]?.byteLength ?? 0);
    return decode.apply(this, args);
  });
  const parse = JSON.parse;
  const parseSpy = vi.spyOn(JSON, 'parse').mockImplementation((source: string, reviver) => {
    longest = Math.max(longest, source.length);
    return parse(source, reviver);
  });
  try {
    const answer = await put(emulator, trickle(chunksOf(text, 16 * 1024)).body);
    expect(answer.status).toBe(200);
  } finally {
    decodeSpy.mockRestore();
    parseSpy.mockRestore();
  }
  expect(text.length).toBeGreaterThan(5_000_000);
  expect(longest).toBeGreaterThan(0);
  expect(longest).toBeLessThanOrEqual(64 * 1024);
}, 60_000);

test('a snapshot import puts at most stepsPerSlice messages in place between two turns of the event loop', async () => {
  emulator = makeEmulator({ balance: 1_000_000 });
  const source = makeEmulator({ balance: 1_000_000 });
  const text = JSON.stringify(await grownSnapshot(source, 5_000));
  await source.close();
  const target = emulator;
  const stop = perTurn(() => target.messages.list({ limit: 1 }).total);
  const answer = await put(target, text);
  const { most } = stop();
  expect(answer.status).toBe(200);
  expect(target.messages.list().total).toBe(5_000);
  expect(most).toBeGreaterThan(0);
  expect(most).toBeLessThanOrEqual(stepsPerSlice);
}, 60_000);

test('a slicer gives the event loop a turn after at most stepsPerSlice steps, however quickly they run', async () => {
  let pauses = 0;
  const due = slicer(async () => {
    pauses += 1;
  });
  for (let step = 0; step < stepsPerSlice * 4; step++) await due();
  expect(pauses).toBeGreaterThanOrEqual(4);
});

/** An endless body: `start`, then `filler` over and over, read 16 kB at a time. */
function endless(start: string, filler: string): { body: ReadableStream<Uint8Array>; read: () => number } {
  const first = new TextEncoder().encode(start);
  const rest = new TextEncoder().encode(filler.repeat(Math.ceil((16 * 1024) / filler.length)));
  let sent = false;
  return trickle(() => {
    if (sent) return rest.slice();
    sent = true;
    return first;
  });
}

test.each([
  ['nested deeper than 512 levels', `{"version":1,"replies":${'['.repeat(600)}`, '[', 400, 'SNAPSHOT_TOO_DEEP'],
  ['not JSON', '{"version":1,"messages":[{"id":x', 'x', 400, 'CONTROL_INVALID_REQUEST'],
  ['far denser in values than any export', '{"version":1,"messages":[', '{},', 413, 'SNAPSHOT_TOO_LARGE'],
])(
  'a snapshot %s near its start is refused before the rest of the body is read, and changes nothing',
  async (_, start, filler, status, code) => {
    emulator = makeEmulator({ maxSnapshotSize: 64 * 1024 * 1024 });
    await send(emulator, { recipient: ['27831234567'], message: 'before' });
    const before = emulator.snapshot();
    const { body, read } = endless(start, filler);
    const refused = await put(emulator, body);
    expect(refused.status).toBe(status);
    expect(await refused.json()).toMatchObject({ message: code });
    // Read to the maxSnapshotSize limit first, this would be 64 MB and SNAPSHOT_TOO_LARGE.
    expect(read()).toBeLessThan(2 * 1024 * 1024);
    expect(emulator.snapshot()).toEqual(before);
  },
  60_000,
);

type Mutation = (snapshot: any) => void;

test.each<[string, Mutation]>([
  ['a message text too long', (s) => (s.messages[3].text = 'x'.repeat(100_001))],
  ['a message with an unknown field', (s) => (s.messages[700].colour = 'blue')],
  ['a negative balance', (s) => (s.accounts[0].live.balance = -1)],
  ['a test clock name too long', (s) => s.clocks.push({ id: 'clock_a', name: 'x'.repeat(201), now: s.clock.now })],
  [
    'a broken reply and a broken message (the message is named first)',
    (s) => {
      s.replies.push({ ...s.messages[0], type: 'sms-reply', id: 'r', legs: 'none' });
      s.messages[900].status = 'lost';
    },
  ],
  [
    'a broken message and a broken account (the account is named first)',
    (s) => {
      s.messages[5].credit = -1;
      s.accounts[0].scopes = ['everything'];
    },
  ],
  [
    'a broken clock and a broken message (the clock is named first)',
    (s) => {
      s.clock.now = 8.64e15;
      s.messages[5].credit = -1;
    },
  ],
  ['a message of an account the snapshot does not define', (s) => (s.messages[800].apiKey = 'pk_ghost')],
  ['a duplicate message id', (s) => (s.messages[999].id = s.messages[0].id)],
])(
  'a snapshot parsed as it streams in answers as a snapshot checked whole: %s',
  async (_, mutate) => {
    emulator = makeEmulator({ balance: 1_000_000 });
    await send(emulator, { recipient: ['27831234567'], message: 'before' });
    const before = emulator.snapshot();
    const broken = (await grownSnapshot(makeEmulator({ balance: 1_000_000 }), 1_000)) as any;
    mutate(broken);
    const text = JSON.stringify(broken);
    // Over 64 kB, the body is split and its lists checked element by element as they stream in.
    expect(text.length).toBeGreaterThan(128 * 1024);
    const streamed = await put(emulator, trickle(chunksOf(text, 16 * 1024)).body);
    // What the import answered before it streamed: the whole body parsed, then its lists checked one element at a time.
    const whole = await parseSnapshotInSlices(JSON.parse(text), async () => undefined).then(
      () => 'accepted',
      (error: unknown) => (error as ApiError).description,
    );
    const answer = (await streamed.json()) as { message: string; description: string };
    expect(streamed.status).toBe(400);
    expect(answer.description).toBe(whole);
    expect(emulator.snapshot()).toEqual(before);
  },
  60_000,
);

test('a list repeated in a snapshot keeps its last value, as JSON.parse reads it, when parsed as it streams in', async () => {
  emulator = makeEmulator({ balance: 1_000_000 });
  const snapshot = await grownSnapshot(makeEmulator({ balance: 1_000_000 }), 1_000);
  const whole = JSON.stringify(snapshot);
  const at = whole.indexOf('"messages":');
  const text = `${whole.slice(0, at)}"messages":[{"id":"broken"}],${whole.slice(at)}`;
  expect(text.indexOf('"messages"')).toBeLessThan(text.lastIndexOf('"messages"'));
  const answer = await put(emulator, trickle(chunksOf(text, 16 * 1024)).body);
  expect(answer.status).toBe(200);
  expect(emulator.messages.list().total).toBe(1_000);
}, 60_000);
