import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { connect, createEmulator, type Emulator } from '../../src/index.js';
import { keepAliveHttp } from '../../src/testing/keepAliveHttp.js';

let server: Server;
let origin: string;
let connections = 0;
const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body });
      if (request.url === '/empty') return response.writeHead(204).end();
      response.writeHead(201, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'], 'retry-after': '7' });
      response.end(JSON.stringify({ echoed: body }));
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

test('one set of connections per origin carries many calls, kept alive, not one connection each', async () => {
  const before = connections;
  for (let call = 0; call < 20; call++)
    await keepAliveHttp(origin).request('POST', '/calls?n=1', { 'content-type': 'text/plain' }, `call ${call}`);
  expect(connections - before).toBe(1);
  expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/calls?n=1', body: 'call 19' });
});

test('its fetch answers what the server said: status, every header, the body, and no body for 204', async () => {
  const response = await keepAliveHttp(origin).fetch(
    new Request(`${origin}/send?x=%20y`, { method: 'PUT', headers: { 'x-test': 'yes' }, body: 'payload' }),
  );
  expect(response.status).toBe(201);
  expect(response.headers.get('retry-after')).toBe('7');
  expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  expect(await response.json()).toEqual({ echoed: 'payload' });
  expect(seen.at(-1)).toMatchObject({ method: 'PUT', url: '/send?x=%20y', headers: { 'x-test': 'yes' } });
  const empty = await keepAliveHttp(origin).fetch(new Request(`${origin}/empty`));
  expect(empty.status).toBe(204);
  expect(await empty.text()).toBe('');
});

test('its fetch gives up when the request is aborted', async () => {
  const controller = new AbortController();
  controller.abort();
  await expect(
    keepAliveHttp(origin).fetch(new Request(`${origin}/aborted`, { signal: controller.signal })),
  ).rejects.toThrow();
});

test('connect() drives an emulator without the global fetch, over its own kept-alive connections', async () => {
  const emulator: Emulator = createEmulator({ clock: 'manual' });
  const { origin: emulatorOrigin } = await emulator.listen({ port: 0 });
  const globalFetch = vi.spyOn(globalThis, 'fetch');
  try {
    const remote = connect(emulatorOrigin);
    const world = await remote.worlds.create({ name: 'pooled' });
    expect(world.clock.name).toBe('pooled');
    await expect(remote.clocks.get('clk_missing')).rejects.toMatchObject({ code: 'CONTROL_NOT_FOUND', status: 404 });
    expect(globalFetch).not.toHaveBeenCalled();
  } finally {
    globalFetch.mockRestore();
    await emulator.close();
  }
});

/** A server that drops a kept-alive connection when a request arrives on it after `served` answers, as one does whose idle timeout ran out just then. */
async function closingServer(served: number): Promise<{ origin: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const answered = new WeakMap<object, number>();
  const closing = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const count = answered.get(request.socket) ?? 0;
    if (count >= served) return void request.socket.destroy();
    answered.set(request.socket, count + 1);
    request.resume();
    request.on('end', () => response.end('ok'));
  });
  await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(closing.address() as AddressInfo).port}`,
    requests,
    close: () => {
      closing.closeAllConnections();
      return new Promise((resolve) => closing.close(() => resolve()));
    },
  };
}

test('a request on a kept-alive connection the server closed before answering is sent once more on a fresh one', async () => {
  const server = await closingServer(1);
  try {
    const http = keepAliveHttp(server.origin);
    expect((await http.request('GET', '/first', {}, undefined)).text).toBe('ok');
    // The second call reuses the first call's socket, which the server drops: it is tried again and answered.
    const second = await http.request('PUT', '/second', { 'content-type': 'text/plain' }, 'body');
    expect(second).toMatchObject({ status: 200, text: 'ok' });
    expect(server.requests).toEqual(['GET /first', 'PUT /second', 'PUT /second']);
  } finally {
    await server.close();
  }
});

test('a request that fails on a fresh connection is not sent again', async () => {
  const server = await closingServer(0);
  try {
    await expect(keepAliveHttp(server.origin).request('POST', '/once', {}, 'body')).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    expect(server.requests).toEqual(['POST /once']);
  } finally {
    await server.close();
  }
});
