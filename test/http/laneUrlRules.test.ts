/** The fast lane copies @hono/node-server's URL rules: pinned to one version, and held to what that version does with the targets and hosts the lane reads as they are. */

import { readFileSync } from 'node:fs';
import { type Server, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readAsIs } from '../../src/http/adapters/fastLane.js';

const root = new URL('../../', import.meta.url);
const json = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));

let server: Server;
let port: number;
beforeAll(async () => {
  // @hono/node-server answers with the URL it built for the request.
  server = createServer(getRequestListener((request) => new Response(request.url)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The URL @hono/node-server builds for `target` sent with Host `host`, or its refusal's status. */
function builtUrl(target: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path: target, headers: { host }, agent: false },
      (incoming) => {
        let body = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (body += chunk));
        incoming.on('end', () => resolve(incoming.statusCode === 200 ? body : `HTTP ${incoming.statusCode}`));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

test('@hono/node-server is pinned to one exact version, the one installed and locked', () => {
  const pinned = json('package.json').dependencies['@hono/node-server'];
  expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
  expect(json('node_modules/@hono/node-server/package.json').version).toBe(pinned);
  const lock = json('package-lock.json');
  expect(lock.packages[''].dependencies['@hono/node-server']).toBe(pinned);
  expect(lock.packages['node_modules/@hono/node-server'].version).toBe(pinned);
});

const plainTargets = [
  '/v1/messages',
  '/v1/messages/balance?x=1&y=2',
  "/sandbox/v1/messages/abc-_~.!$&'()*+,;=:@",
  '/v1/a/b/c/',
  '/v1?q',
];
const plainHosts = ['emulator.test', '127.0.0.1:2727', 'localhost:8080', 'a-b_c.d'];

test('every target and Host the lane reads as they are, @hono/node-server turns into exactly scheme://host + target', async () => {
  for (const target of plainTargets)
    for (const host of plainHosts) expect(readAsIs(target, host), `${host}${target}`).toBe(true);
  const targetChar = fc.constantFrom(
    ...'/abcAZ09-._~!$&\'()*+,;=:@%?#[]\\^`{|}"<>é'.split(''),
    '/..',
    '/.',
    '%2e',
    '%2F',
  );
  const hostChar = fc.constantFrom(...'abcAZ09.-_:@[]%é'.split(''));
  const targets = fc.oneof(
    fc.constantFrom(...plainTargets),
    fc.array(targetChar, { maxLength: 12 }).map((chars) => `/v1/${chars.join('')}`),
  );
  const hosts = fc.oneof(
    fc.constantFrom(...plainHosts),
    fc.array(hostChar, { minLength: 1, maxLength: 12 }).map((chars) => chars.join('')),
    fc.integer({ min: 0, max: 70000 }).map((n) => `emulator.test:${n}`),
  );
  let read = 0;
  await fc.assert(
    fc.asyncProperty(targets, hosts, async (target, host) => {
      if (!readAsIs(target, host)) return;
      read += 1;
      expect(await builtUrl(target, host), `${host} ${target}`).toBe(`http://${host}${target}`);
    }),
    { seed: 18, numRuns: 400 },
  );
  // The property means something only when many generated pairs are ones the lane takes.
  expect(read).toBeGreaterThan(100);
});

test('targets and hosts the lane leaves to hono are ones @hono/node-server rewrites or refuses', async () => {
  const leftToHono: [string, string][] = [
    ['/v1/../v1/messages', 'emulator.test'],
    ['/v1/./messages', 'emulator.test'],
    ['/v1/messages/%7Bé%7D', 'emulator.test'],
    ['/v1/messages', 'EMULATOR.test'],
    ['/v1/messages', 'emulator.test:80'],
    ['/v1/a"b', 'emulator.test'],
  ];
  for (const [target, host] of leftToHono) {
    expect(readAsIs(target, host), `${host}${target}`).toBe(false);
    expect(await builtUrl(target, host), `${host}${target}`).not.toBe(`http://${host}${target}`);
  }
});
