/** The node fast lane answers every API request exactly as hono does: same status, headers, body and journal entry. */

import { type Server, ServerResponse, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test, vi } from 'vitest';
import type { Emulator, EmulatorOptions } from '../../src/index.js';
import { nodeListener } from '../../src/http/server.js';
import { apiKey, basic, makeEmulator, signingSecret } from '../support/api.js';
import { signRequest } from '../../src/index.js';
import { RequestJournal } from '../../src/journal/requestJournal.js';

/** Counts the requests that fell through to hono's node adapter (the fast lane's fallback). */
const honoAdapter = vi.hoisted(() => ({ calls: 0 }));
vi.mock('@hono/node-server', async (importOriginal) => {
  const original = await importOriginal<typeof import('@hono/node-server')>();
  return {
    ...original,
    getRequestListener: (...args: Parameters<typeof original.getRequestListener>) => {
      const listener = original.getRequestListener(...args);
      return (...call: Parameters<typeof listener>) => {
        honoAdapter.calls += 1;
        return listener(...call);
      };
    },
  };
});

interface Exchange {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Whether the fast lane takes it (else it must fall through to hono). */
  lane?: boolean;
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers that say something about the answer (not the connection or the moment). */
const transportHeaders = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

function exchange(port: number, host: string, { method, path, headers = {}, body }: Exchange): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers))
          if (!transportHeaders.has(name)) kept[name] = String(value);
        resolve({ status: res.statusCode as number, headers: kept, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function viaFetch(
  emulator: Emulator,
  host: string,
  { method, path, headers = {}, body }: Exchange,
): Promise<Reply> {
  const response = await emulator.fetch(new Request(`http://${host}${path}`, { method, headers, body }));
  return {
    status: response.status,
    headers: { 'content-type': response.headers.get('content-type') ?? '' },
    body: await response.text(),
  };
}

/** Listens on a free port with the emulator's own listener (fast lane), or with hono's node adapter alone. */
async function serve(listener: Parameters<typeof createServer>[1]): Promise<number> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  server.closeIdleConnections();
  return (server.address() as AddressInfo).port;
}

/** The journal as the control API shows it, less what differs between any two runs (wall time, duration). */
function journalOf(emulator: Emulator): unknown[] {
  return emulator.requests
    .find({ limit: 1000 })
    .items.map(({ wallTime: _wallTime, durationMs: _durationMs, ...entry }) => entry);
}

/** Runs `exchanges` through the fast lane, through hono's node adapter and through emulator.fetch, on three alike emulators. */
async function compare(options: EmulatorOptions, exchanges: Exchange[]): Promise<void> {
  // The Host check answers before either way is taken: the Host these exchanges use is allowed.
  const alike = { allowedHosts: ['emulator.test'], ...options };
  const [lane, adapter, fetched] = [makeEmulator(alike), makeEmulator(alike), makeEmulator(alike)];
  for (const emulator of [lane, adapter, fetched]) closers.push(() => emulator.close());
  const lanePort = await serve(lane.requestListener);
  const adapterPort = await serve(nodeListener(adapter));
  // One Host for all three, so links and documentation URLs read alike.
  const host = 'emulator.test:2727';
  for (const request of exchanges) {
    const before = honoAdapter.calls;
    const viaLane = await exchange(lanePort, host, request);
    expect(
      honoAdapter.calls - before,
      `${request.method} ${request.path} took the ${request.lane === false ? 'fast lane' : 'hono adapter'}`,
    ).toBe(request.lane === false ? 1 : 0);
    const viaAdapter = await exchange(adapterPort, host, request);
    expect(viaLane, `${request.method} ${request.path}`).toEqual(viaAdapter);
    const viaApp = await viaFetch(fetched, host, request);
    expect({ status: viaLane.status, body: viaLane.body }, `${request.method} ${request.path}`).toEqual({
      status: viaApp.status,
      body: viaApp.body,
    });
    if (request.method !== 'HEAD') expect(viaApp.headers['content-type']).toBe(viaLane.headers['content-type']);
  }
  expect(journalOf(lane)).toEqual(journalOf(adapter));
  expect(journalOf(lane).length).toBeGreaterThan(0);
  // In process, a body has no Content-Length of its own, so one hono refuses while reading it is journaled as not kept:
  // only what the fast lane takes is compared with emulator.fetch.
  const inLane = (entries: unknown[]) =>
    entries.filter((entry, index) => exchanges[exchanges.length - 1 - index]?.lane !== false);
  expect(inLane(journalOf(lane))).toEqual(inLane(journalOf(fetched)));
}

const auth = { authorization: basic(apiKey) };
const json = 'application/json';
const fields = { recipient: ['27831234567'], message: 'Hello' };
const signed = (body: Record<string, unknown>, extra: Record<string, string> = {}) => ({
  headers: { ...auth, 'content-type': json, signature: signRequest(body, signingSecret), ...extra },
  body: JSON.stringify(body),
});
const later = { recipient: ['27831234567'], message: 'Later', schedule: '2026-11-22T09:30' };

test('the fast lane answers and journals the API exactly as hono does, and leaves the unusual requests to hono', async () => {
  await compare({ maxBodySize: 4096 }, [
    { method: 'GET', path: '/v1/messages/balance', headers: auth },
    { method: 'GET', path: '/v1/messages/balance/', headers: auth },
    { method: 'HEAD', path: '/v1/messages/balance', headers: auth },
    { method: 'GET', path: '/sandbox/v1/messages/balance', headers: auth },
    { method: 'GET', path: '/v1/messages/balance' },
    { method: 'GET', path: '/v1/messages/balance', headers: { authorization: basic('pk_nobody') } },
    { method: 'GET', path: '/v1/messages/balance', headers: { authorization: 'Bearer token' } },
    { method: 'PUT', path: '/v1/messages/balance', headers: auth },
    { method: 'OPTIONS', path: '/v1/messages', headers: auth },
    { method: 'DELETE', path: '/v1/messages', headers: auth },
    { method: 'GET', path: '/v1', headers: auth },
    { method: 'GET', path: '/v1/nothing/here?x=1', headers: auth },
    { method: 'GET', path: '/v1/messages', headers: auth },
    { method: 'POST', path: '/v1/messages', ...signed(fields) },
    { method: 'POST', path: '/v1/messages', ...signed(later) },
    { method: 'POST', path: '/sandbox/v1/messages', ...signed(fields) },
    { method: 'POST', path: '/v1/messages', ...signed(fields, { 'x-emulator-outcome': 'undelivered' }) },
    { method: 'POST', path: '/v1/messages', ...signed(fields, { 'x-emulator-outcome': 'nonsense@' }) },
    { method: 'POST', path: '/v1/messages', ...signed(fields, { signature: 'f'.repeat(64) }) },
    { method: 'POST', path: '/v1/messages', headers: { ...auth, 'content-type': json }, body: JSON.stringify(fields) },
    { method: 'POST', path: '/v1/messages', headers: { ...auth, 'content-type': json }, body: '{"recipient": [' },
    {
      method: 'POST',
      path: '/v1/messages',
      headers: { ...auth, 'content-type': json },
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    },
    { method: 'POST', path: '/v1/messages', headers: { ...auth, 'content-type': json }, body: '[1]' },
    {
      method: 'POST',
      path: '/v1/messages',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: JSON.stringify(fields),
    },
    {
      method: 'POST',
      path: '/v1/messages',
      headers: {
        ...auth,
        'content-type': 'application/x-www-form-urlencoded',
        signature: signRequest(fields, signingSecret),
      },
      body: 'recipient[]=27831234567&message=Hello',
    },
    { method: 'POST', path: '/v1/messages', headers: auth, body: JSON.stringify(fields) },
    { method: 'POST', path: '/v1/messages', headers: { 'content-type': json }, body: JSON.stringify(fields) },
    { method: 'POST', path: '/v1/messages', ...signed({ ...fields, message: 'x'.repeat(5000) }), lane: false },
    {
      method: 'POST',
      path: '/v1/messages',
      headers: { ...auth, 'transfer-encoding': 'chunked' },
      body: JSON.stringify(fields),
      lane: false,
    },
    { method: 'GET', path: '/v1/messages?limit=1&page=2', headers: auth },
    { method: 'GET', path: '/v1/messages?limit=zero', headers: auth },
    { method: 'GET', path: '/v1/messages?search=Later&status=scheduled', headers: auth },
    { method: 'GET', path: '/v1/messages/nope', headers: auth },
    { method: 'GET', path: '/v1/messages/a%20b', headers: auth, lane: false },
    { method: 'GET', path: '/v1/../v1/messages/balance', headers: auth, lane: false },
    { method: 'GET', path: '/v1/Messages/Balance', headers: auth },
    {
      method: 'GET',
      path: '/v1/messages/balance',
      headers: { ...auth, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'sms.example.com' },
    },
    { method: 'GET', path: '/v1/messages/balance', headers: { ...auth, 'x-forwarded-host': 'bad/host' } },
    { method: 'GET', path: '/v2/messages/balance', headers: auth, lane: false },
    { method: 'GET', path: '/sandbox/v1x', headers: auth, lane: false },
  ]);
});

test('the fast lane edits, reads and deletes a message as hono does', async () => {
  const created = { recipient: ['27831234567'], message: 'Edit me', schedule: '2026-11-22T09:30' };
  // The seed makes the first message's id the same in all three emulators.
  const probe = makeEmulator();
  const response = await probe.fetch(
    new Request('http://emulator.test/v1/messages', { method: 'POST', ...signed(created) }),
  );
  const { id } = (await response.json()) as { id: string };
  await probe.close();
  await compare({}, [
    { method: 'POST', path: '/v1/messages', ...signed(created) },
    { method: 'GET', path: `/v1/messages/${id}`, headers: auth },
    { method: 'PATCH', path: `/v1/messages/${id}`, ...signed({ message: 'Edited' }) },
    { method: 'PATCH', path: `/v1/messages/${id}`, headers: { ...auth, 'content-type': json }, body: '{"message":' },
    { method: 'PUT', path: `/v1/messages/${id}`, headers: auth },
    { method: 'DELETE', path: `/v1/messages/${id}`, headers: auth },
    { method: 'DELETE', path: `/v1/messages/${id}`, headers: auth },
    { method: 'GET', path: `/sandbox/v1/messages/${id}`, headers: auth },
  ]);
});

test('the fast lane applies injected faults, requireHttps and publicUrl as hono does', async () => {
  const scenario = {
    version: 1 as const,
    faults: [
      { match: { operation: 'list' as const }, error: { status: 503 } },
      { match: { operation: 'get' as const }, rateLimit: { requests: 1, per: '1m' } },
      { match: { operation: 'delete' as const }, latency: '5ms', error: { status: 500 } },
    ],
  };
  await compare({ scenario, requireHttps: true, publicUrl: 'https://sms.example.com' }, [
    { method: 'GET', path: '/v1/messages/balance', headers: auth },
    { method: 'GET', path: '/v1/messages/balance', headers: { ...auth, 'x-forwarded-proto': 'https' } },
    { method: 'GET', path: '/v1/messages', headers: { ...auth, 'x-forwarded-proto': 'https' } },
    { method: 'GET', path: '/v1/messages/x', headers: { ...auth, 'x-forwarded-proto': 'https' } },
    { method: 'GET', path: '/v1/messages/x', headers: { ...auth, 'x-forwarded-proto': 'https' } },
    { method: 'DELETE', path: '/v1/messages/x', headers: { ...auth, 'x-forwarded-proto': 'https' } },
    { method: 'POST', path: '/v1/messages', ...signed(fields, { 'x-forwarded-proto': 'https' }) },
    { method: 'GET', path: '/v1/nothing', headers: auth },
  ]);
});

test('the fast lane writes the same --log-requests lines as hono', async () => {
  const lines: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((line) => {
    lines.push(String(line).replace(/ [\d.]+ms/, ' <duration>'));
    return true;
  });
  try {
    await compare({ logRequests: true }, [
      { method: 'GET', path: '/v1/messages/balance', headers: auth },
      { method: 'POST', path: '/v1/messages', ...signed(fields) },
    ]);
  } finally {
    write.mockRestore();
  }
  // Lane, adapter and fetch each wrote one line per request, alike.
  expect(lines).toHaveLength(6);
  expect(lines[0]).toBe(lines[1]);
  expect(lines[1]).toBe(lines[2]);
  expect(lines[3]).toBe(lines[4]);
  expect(lines[4]).toBe(lines[5]);
});

test('the fast lane reads a body that arrives in pieces whole, as hono does', async () => {
  const emulator = makeEmulator();
  closers.push(() => emulator.close());
  const port = await serve(emulator.requestListener);
  const { body } = signed(fields);
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/messages',
        headers: { ...signed(fields).headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode as number));
      },
    );
    req.on('error', reject);
    req.flushHeaders();
    // Written in three parts, each after the last has gone out, so the server may read them as separate chunks.
    const parts = [body.slice(0, 10), body.slice(10, 20), body.slice(20)];
    const next = () => {
      const part = parts.shift();
      if (part === undefined) return req.end();
      req.write(part, () => setImmediate(next));
    };
    next();
  });
  expect(status).toBe(201);
  const [entry] = emulator.requests.find({ limit: 1 }).items;
  expect(entry?.requestBody).toEqual(fields);
});

test('the fast lane journals no body for a GET that carries one, as hono does', async () => {
  const emulator = makeEmulator();
  closers.push(() => emulator.close());
  const port = await serve(emulator.requestListener);
  const reply = await exchange(port, 'localhost', {
    method: 'GET',
    path: '/v1/messages/balance',
    headers: { ...auth, 'content-type': json, 'content-length': '7' },
    body: '{"a":1}',
  });
  expect(reply.status).toBe(200);
  const [entry] = emulator.requests.find({ limit: 1 }).items;
  expect(entry?.requestBody).toBeNull();
});

test("a defect on the fast lane is answered with the catalogue's INTERNAL_SERVER_ERROR, as hono's error handler answers it", async () => {
  // The journal is written after the route has answered, outside its error handling: a throw there is a defect.
  const record = vi.spyOn(RequestJournal.prototype, 'record').mockImplementation(() => {
    throw new Error('a defect in the journal');
  });
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const [lane, adapter, fetched] = [makeEmulator(), makeEmulator(), makeEmulator()];
    for (const emulator of [lane, adapter, fetched]) closers.push(() => emulator.close());
    const lanePort = await serve(lane.requestListener);
    const adapterPort = await serve(nodeListener(adapter));
    const before = honoAdapter.calls;
    for (const request of [
      { method: 'GET', path: '/v1/messages/balance', headers: auth },
      { method: 'HEAD', path: '/v1/messages/balance', headers: auth },
      { method: 'POST', path: '/v1/messages', ...signed(fields) },
    ]) {
      const viaLane = await exchange(lanePort, 'localhost', request);
      const viaAdapter = await exchange(adapterPort, 'localhost', request);
      expect(viaLane, `${request.method} ${request.path}`).toEqual(viaAdapter);
      expect(viaLane.status).toBe(500);
      expect(viaLane.headers['content-type']).toBe(json);
      if (request.method === 'HEAD') continue;
      expect(JSON.parse(viaLane.body)).toEqual({
        message: 'INTERNAL_SERVER_ERROR',
        description: 'An unexpected fault happened on the server side.',
        documentation_url: expect.stringMatching(/\/_emulator\/docs\/errors#internal_server_error$/i),
      });
      const viaApp = await viaFetch(fetched, 'localhost', request);
      expect({ status: viaApp.status, body: viaApp.body }).toEqual({ status: viaLane.status, body: viaLane.body });
    }
    // Each exchange on the lane port stayed on the lane (the adapter port's go through hono's adapter).
    expect(honoAdapter.calls - before).toBe(3);
    expect(logged).toHaveBeenCalledWith(
      'sms-emulator: unexpected error while handling',
      'GET',
      '/v1/messages/balance',
      expect.objectContaining({ message: 'a defect in the journal' }),
    );
  } finally {
    record.mockRestore();
    logged.mockRestore();
  }
});

test('a defect in writing the answer on the fast lane closes that connection, not the process', async () => {
  const emulator = makeEmulator();
  closers.push(() => emulator.close());
  const port = await serve(emulator.requestListener);
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const writeHead = vi.spyOn(ServerResponse.prototype, 'writeHead').mockImplementation(() => {
    throw new Error('a defect in writing');
  });
  try {
    await expect(
      exchange(port, 'localhost', { method: 'GET', path: '/v1/messages/balance', headers: auth }),
    ).rejects.toThrow(/socket hang up/);
  } finally {
    writeHead.mockRestore();
    logged.mockRestore();
  }
  const reply = await exchange(port, 'localhost', { method: 'GET', path: '/v1/messages/balance', headers: auth });
  expect(reply.status).toBe(200);
});
