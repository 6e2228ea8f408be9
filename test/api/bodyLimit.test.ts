import { request as httpRequest } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { apiKey, basic, call, makeEmulator, origin, send } from '../support/api.js';

const hundredMegabytes = 100 * 1024 * 1024;
const chunkSize = 64 * 1024;

let emulator: Emulator;
afterEach(() => emulator?.close());

/** A body of `total` bytes made only as it is pulled, counting what the emulator read. */
function lazyBody(total: number, fill = 0x20): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const chunk = new Uint8Array(chunkSize).fill(fill);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) return controller.close();
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

async function streamTo(
  method: string,
  path: string,
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
) {
  const response = await emulator.fetch(
    new Request(origin + path, { method, body, duplex: 'half', headers } as RequestInit),
  );
  return { status: response.status, body: (await response.json()) as { message: string } };
}

test.each([
  ['POST', '/v1/messages'],
  ['POST', '/sandbox/v1/messages'],
  ['POST', '/_emulator/sign'],
  ['PUT', '/_emulator/scenario'],
  ['PUT', '/_emulator/snapshot'],
  ['POST', '/_emulator/accounts'],
])(
  'refuses a 100 MB body streamed to %s %s with 413 (SNAPSHOT_TOO_LARGE for a snapshot, else PAYLOAD_TOO_LARGE) after reading about the limit, changing nothing',
  async (method, path) => {
    // A snapshot import has its own limit (64 MiB by default) and its own error: set here to 1 MiB.
    const snapshot = path === '/_emulator/snapshot';
    emulator = makeEmulator(snapshot ? { maxSnapshotSize: 1_048_576 } : {});
    await send(emulator, { recipient: ['27831234567'], message: 'before' });
    const before = emulator.snapshot();
    const { stream, pulled } = lazyBody(hundredMegabytes);
    const reply = await streamTo(method, path, stream, {
      authorization: basic(apiKey),
      'content-type': 'application/json',
    });
    expect(reply.status).toBe(413);
    expect(reply.body.message).toBe(snapshot ? 'SNAPSHOT_TOO_LARGE' : 'PAYLOAD_TOO_LARGE');
    const limit = snapshot ? emulator.options.maxSnapshotSize : emulator.options.maxBodySize;
    expect(pulled()).toBeLessThanOrEqual(limit + 2 * chunkSize);
    expect(emulator.snapshot()).toEqual(before);
  },
);

test('refuses a declared Content-Length over the limit before reading the body', async () => {
  emulator = makeEmulator();
  const { stream, pulled } = lazyBody(hundredMegabytes);
  const reply = await streamTo('POST', '/v1/messages', stream, {
    authorization: basic(apiKey),
    'content-length': String(hundredMegabytes),
  });
  expect(reply.status).toBe(413);
  expect(pulled()).toBeLessThanOrEqual(2 * chunkSize);
});

test('refuses a snapshot import declared one byte over 64 MiB, the default limit, before reading its body', async () => {
  emulator = makeEmulator();
  const overDefault = 64 * 1024 * 1024 + 1;
  const { stream, pulled } = lazyBody(overDefault);
  const reply = await streamTo('PUT', '/_emulator/snapshot', stream, {
    'content-type': 'application/json',
    'content-length': String(overDefault),
  });
  expect(reply.status).toBe(413);
  expect(reply.body.message).toBe('SNAPSHOT_TOO_LARGE');
  expect(pulled()).toBeLessThanOrEqual(2 * chunkSize);
});

test('accepts a body of exactly maxBodySize bytes and refuses one byte more', async () => {
  emulator = makeEmulator({ maxBodySize: 64 });
  const fields = { recipient: ['27831234567'], message: 'x' };
  const exact = JSON.stringify({ ...fields, message: 'x'.repeat(64 - JSON.stringify(fields).length + 1) });
  expect(exact.length).toBe(64);
  expect((await call(emulator, 'POST', '/v1/messages', { raw: exact, sign: false })).body.message).not.toBe(
    'PAYLOAD_TOO_LARGE',
  );
  const reply = await call(emulator, 'POST', '/v1/messages', { raw: `${exact} ` });
  expect(reply.status).toBe(413);
  expect(reply.body.message).toBe('PAYLOAD_TOO_LARGE');
});

test.each([
  ['with a Content-Length', true],
  ['chunked', false],
])('answers 413 over a socket while a 100 MB body (%s) is still being sent', async (_, declared) => {
  emulator = makeEmulator();
  const { port } = await emulator.listen({ host: '127.0.0.1', port: 0 });
  const result = await new Promise<{ status: number; written: number }>((resolve, reject) => {
    let written = 0;
    let answered = false;
    const headers: Record<string, string> = { authorization: basic(apiKey), 'content-type': 'application/json' };
    if (declared) headers['content-length'] = String(hundredMegabytes);
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/messages', headers }, (res) => {
      answered = true;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, written }));
    });
    // The server may close the connection once it has answered; that is expected here.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(chunkSize, 0x20);
    const pump = () => {
      while (!answered && written < hundredMegabytes) {
        written += chunk.byteLength;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
  expect(result.status).toBe(413);
  expect(result.written).toBeLessThan(hundredMegabytes / 2);
});

test.each(['live', 'sandbox'] as const)(
  'refuses a lone surrogate in a %s send or edit with JSON_MALFORMED_UTF8 and charges nothing',
  async (environment) => {
    emulator = makeEmulator();
    const base = environment === 'live' ? '/v1/messages' : '/sandbox/v1/messages';
    const scheduled = await send(
      emulator,
      { recipient: ['27831234567'], message: 'later', schedule: '2026-11-21T14:00:00+02:00' },
      environment,
    );
    const before = emulator.snapshot();
    for (const raw of [
      '{"recipient":["27831234567"],"message":"hi \\ud800"}',
      '{"recipient":["27831234567"],"message":"hi","x\\udfff":1}',
    ]) {
      const sent = await call(emulator, 'POST', base, { raw });
      expect(sent.status).toBe(400);
      expect(sent.body.message).toBe('JSON_MALFORMED_UTF8');
      const edited = await call(emulator, 'PATCH', `${base}/${scheduled.id}`, { raw: '{"message":"\\ud800"}' });
      expect(edited.status).toBe(400);
      expect(edited.body.message).toBe('JSON_MALFORMED_UTF8');
    }
    expect(emulator.snapshot()).toEqual(before);
  },
);

test('refuses a lone surrogate or 10,000 levels of nesting in /_emulator/sign with CONTROL_INVALID_REQUEST', async () => {
  emulator = makeEmulator();
  for (const raw of [
    '{"message":"\\ud800"}',
    `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    `{"a":${'{"b":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
  ]) {
    const reply = await call(emulator, 'POST', '/_emulator/sign', { raw });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('CONTROL_INVALID_REQUEST');
  }
});
