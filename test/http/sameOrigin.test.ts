/** The Origin check on a real socket: the control API, the report and the live stream answer clients without an Origin and the emulator's own pages only. */

import { request as httpRequest } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import type { Emulator, EmulatorOptions } from '../../src/index.js';
import { makeEmulator } from '../support/api.js';

const open: Emulator[] = [];
afterEach(async () => {
  for (const emulator of open.splice(0)) await emulator.close();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

async function listening(options: EmulatorOptions = {}): Promise<{ emulator: Emulator; port: number; origin: string }> {
  const emulator = makeEmulator(options);
  open.push(emulator);
  const { port, origin } = await emulator.listen({ port: 0 });
  return { emulator, port, origin };
}

function exchange(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode as number,
          headers: res.headers,
          body: text.startsWith('{') ? JSON.parse(text) : text,
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Every kind of /_emulator route that reads or changes something: control reads and writes, the open health check, the report, the stream. */
const guarded: [string, string, string?][] = [
  ['POST', '/_emulator/clock', '{"advance":"24h"}'],
  ['POST', '/_emulator/accounts', '{"apiKey":"pk_attacker"}'],
  ['POST', '/_emulator/reset'],
  ['POST', '/_emulator/webhooks/chaos', '{"delayRate":1,"delay":"7d"}'],
  ['GET', '/_emulator/accounts'],
  ['GET', '/_emulator/snapshot'],
  ['GET', '/_emulator/health'],
  ['GET', '/_emulator/report'],
  ['GET', '/_emulator/report?format=json'],
  ['GET', '/_emulator/ui/events'],
];

const foreignHeaders = (port: number): Record<string, string>[] => [
  { origin: `http://127.0.0.1:${port + 1}` },
  { origin: `http://localhost:${port}` },
  { origin: 'null' },
  { origin: `https://127.0.0.1:${port}` },
  { 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'same-site' },
  { origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-site' },
];

test('a request from a page on another origin is refused with ORIGIN_NOT_ALLOWED and changes nothing', async () => {
  const { emulator, port } = await listening();
  const before = emulator.snapshot();
  for (const headers of foreignHeaders(port)) {
    for (const [method, path, body] of guarded) {
      const reply = await exchange(port, method, path, { 'content-type': 'text/plain', ...headers }, body);
      expect({ method, path, headers, status: reply.status, code: reply.body.message }).toEqual({
        method,
        path,
        headers,
        status: 403,
        code: 'ORIGIN_NOT_ALLOWED',
      });
      expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    }
  }
  expect(emulator.snapshot()).toEqual(before);
  const refused = await exchange(port, 'POST', '/_emulator/reset', { origin: 'null' });
  expect(refused.body.description).toContain('"null"');
  expect(refused.body.description).toContain('curl, the library, connect()');
});

test('with a control token, a page on another origin is refused before the token is looked at', async () => {
  const { port } = await listening({ controlToken: 'tok' });
  const reply = await exchange(port, 'GET', '/_emulator/accounts', {
    origin: 'http://localhost:3000',
    authorization: 'Bearer tok',
  });
  expect(reply.body.message).toBe('ORIGIN_NOT_ALLOWED');
  expect((await exchange(port, 'GET', '/_emulator/accounts', { authorization: 'Bearer tok' })).status).toBe(200);
});

test("requests without an Origin (curl, Node's fetch) and from the emulator's own pages answer, whatever their content type", async () => {
  const { emulator, port, origin } = await listening();
  // As `curl -d` sends it: form-encoded, no Origin.
  const moved = await exchange(
    port,
    'POST',
    '/_emulator/clock',
    { 'content-type': 'application/x-www-form-urlencoded' },
    '{"advance":"1h"}',
  );
  expect(moved.status).toBe(200);
  const own = { origin, 'sec-fetch-site': 'same-origin' };
  expect(
    (await exchange(port, 'POST', '/_emulator/clock', { ...own, 'content-type': 'text/plain' }, '{"advance":"1h"}'))
      .status,
  ).toBe(200);
  expect((await exchange(port, 'GET', '/_emulator/report', { 'sec-fetch-site': 'none' })).status).toBe(200);
  expect(
    (
      await exchange(port, 'GET', '/_emulator/accounts', {
        origin: `http://localhost:${port}`,
        host: `localhost:${port}`,
      })
    ).status,
  ).toBe(200);
  const fetched = await fetch(`${origin}/_emulator/clock`, { method: 'POST', body: '{"advance":"1h"}' });
  expect(fetched.status).toBe(200);
  expect(emulator.clock.now().toISOString()).toBe('2026-11-21T13:00:00.000Z');
});

test('publicUrl and a proxy forwarding its own origin count as the emulator itself', async () => {
  const { port } = await listening({ publicUrl: 'https://sms.example.test:8443' });
  expect((await exchange(port, 'GET', '/_emulator/accounts', { origin: 'https://sms.example.test:8443' })).status).toBe(
    200,
  );
  const proxied = {
    origin: 'https://proxy.example.test',
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'proxy.example.test',
  };
  const { port: behindProxy } = await listening();
  expect((await exchange(behindProxy, 'GET', '/_emulator/accounts', proxied)).status).toBe(200);
});

test('the pages that hold no data (inbox, docs, landing page, OpenAPI) still open from a link on another site', async () => {
  const { port } = await listening();
  for (const path of [
    '/_emulator/ui',
    '/_emulator/ui/app.js',
    '/_emulator/docs/',
    '/_emulator',
    '/_emulator/openapi.json',
  ]) {
    expect({ path, status: (await exchange(port, 'GET', path, { 'sec-fetch-site': 'cross-site' })).status }).toEqual({
      path,
      status: 200,
    });
  }
});

test('the inbox and the report forbid framing with both headers', async () => {
  const { port } = await listening();
  for (const path of ['/_emulator/ui', '/_emulator/report', '/_emulator/report?format=json']) {
    const { headers } = await exchange(port, 'GET', path);
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  }
});
