/** The Host check on a real socket: loopback names, the listening address, publicUrl and allowedHosts answer; any other Host is refused. */

import { request as httpRequest } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { parseCli } from '../../src/cli/args.js';
import { hostAllowed } from '../../src/domain/hostNames.js';
import { hostNotAllowed } from '../../src/http/checks/hostCheck.js';
import type { Emulator, EmulatorOptions } from '../../src/index.js';
import { apiKey, basic, makeEmulator } from '../support/api.js';

const open: Emulator[] = [];
afterEach(async () => {
  for (const emulator of open.splice(0)) await emulator.close();
});

interface Reply {
  status: number;
  body: any;
}

async function listening(
  options: EmulatorOptions = {},
  host = '127.0.0.1',
): Promise<{ emulator: Emulator; port: number }> {
  const emulator = makeEmulator(options);
  open.push(emulator);
  const { port } = await emulator.listen({ host, port: 0 });
  return { emulator, port };
}

/** One request to 127.0.0.1:`port` that says `host` in its Host header. */
function exchange(
  port: number,
  host: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { host, authorization: basic(apiKey), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode as number, body: text.startsWith('{') ? JSON.parse(text) : text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const paths = [
  '/v1/messages/balance',
  '/sandbox/v1/messages/balance',
  '/_emulator/clock',
  '/_emulator/ui',
  '/_emulator/docs/',
];

test('loopback names, names under .localhost and the listening address answer, with the port or without', async () => {
  const { port } = await listening();
  const hosts = [
    'localhost',
    `localhost:${port}`,
    '127.0.0.1',
    `127.0.0.1:${port}`,
    '[::1]',
    `[::1]:${port}`,
    `LocalHost:${port}`,
    `app.localhost:${port}`,
  ];
  for (const host of hosts) {
    for (const path of paths)
      expect({ host, path, status: (await exchange(port, host, 'GET', path)).status }).toEqual({
        host,
        path,
        status: 200,
      });
  }
});

test('any other Host is refused with HOST_NOT_ALLOWED on the fast lane, the control API and the pages, changing nothing', async () => {
  const { emulator, port } = await listening();
  const before = emulator.clock.now().getTime();
  const foreign = [
    'attacker.example',
    `attacker.example:${port}`,
    `localhost.attacker.example:${port}`,
    '127.0.0.1.nip.io',
    'localhost.',
    'x.localhost.evil',
    '10.0.0.5',
  ];
  for (const host of foreign) {
    for (const path of paths) {
      const reply = await exchange(port, host, 'GET', path);
      expect({ host, path, status: reply.status, code: reply.body.message }).toEqual({
        host,
        path,
        status: 403,
        code: 'HOST_NOT_ALLOWED',
      });
    }
    const moved = await exchange(port, host, 'POST', '/_emulator/clock', '{"advance":"24h"}');
    expect(moved.status).toBe(403);
    const sent = await exchange(port, host, 'POST', '/v1/messages', '{"recipient":["27831234567"],"message":"Hi"}', {
      'content-type': 'application/json',
    });
    expect(sent.status).toBe(403);
  }
  expect(emulator.clock.now().getTime()).toBe(before);
  expect(emulator.messages.list().items).toEqual([]);
  const refused = await exchange(port, 'attacker.example', 'GET', '/v1/messages/balance');
  expect(refused.body.description).toContain('--allowed-hosts "attacker.example"');
  // An empty Host has no name to allow.
  expect(hostNotAllowed('').description).not.toContain('--allowed-hosts');
  // The documentation link points at the emulator itself, not at the Host the request named.
  expect(refused.body.documentation_url).toBe(`http://127.0.0.1:${port}/_emulator/docs/errors#HOST_NOT_ALLOWED`);
});

test("publicUrl's host and the allowedHosts names answer, exactly; allowedHosts all turns the check off", async () => {
  const { port } = await listening({ publicUrl: 'https://sms.example.test:8443', allowedHosts: ['Tests.Internal'] });
  for (const host of ['sms.example.test', 'sms.example.test:8443', 'tests.internal:2727', 'TESTS.INTERNAL']) {
    expect({ host, status: (await exchange(port, host, 'GET', '/v1/messages/balance')).status }).toEqual({
      host,
      status: 200,
    });
  }
  for (const host of ['other.example.test', 'tests.internal.attacker.example', 'internal']) {
    expect({ host, status: (await exchange(port, host, 'GET', '/v1/messages/balance')).status }).toEqual({
      host,
      status: 403,
    });
  }
  const { port: open } = await listening({ allowedHosts: ['all'] });
  expect((await exchange(open, 'attacker.example', 'GET', '/_emulator/clock')).status).toBe(200);
});

test('listening on every interface also answers IP addresses (which no DNS answer rebinds), not other names', async () => {
  const { port } = await listening({ controlToken: 'secret' }, '0.0.0.0');
  expect((await exchange(port, `10.1.2.3:${port}`, 'GET', '/v1/messages/balance')).status).toBe(200);
  expect((await exchange(port, '0.0.0.0', 'GET', '/v1/messages/balance')).status).toBe(200);
  expect((await exchange(port, 'laptop.lan', 'GET', '/v1/messages/balance')).status).toBe(403);
});

test('the listening address answers when it is not a loopback one', () => {
  const rules = { allowed: [], listening: ['192.168.1.20'], publicHost: undefined };
  expect(hostAllowed('192.168.1.20', rules)).toBe(true);
  expect(hostAllowed('192.168.1.21', rules)).toBe(false);
  expect(hostAllowed('[fd00::1]', { ...rules, listening: ['fd00::1'] })).toBe(true);
});

test('emulator.fetch has no socket a browser could reach, so any Host answers there', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  const response = await emulator.fetch(
    new Request('http://attacker.example/v1/messages/balance', { headers: { authorization: basic(apiKey) } }),
  );
  expect(response.status).toBe(200);
});

test('--allowed-hosts and SMS_EMULATOR_ALLOWED_HOSTS take comma-separated names and refuse a URL or a port', () => {
  expect(parseCli(['--allowed-hosts', 'a.test,b.test'], {}).options.allowedHosts).toEqual(['a.test', 'b.test']);
  expect(parseCli([], { SMS_EMULATOR_ALLOWED_HOSTS: 'all' }).options.allowedHosts).toEqual(['all']);
  expect(() => parseCli(['--allowed-hosts', 'http://a.test'], {})).toThrow(/host name/);
  expect(() => parseCli(['--allowed-hosts', 'a.test:8080'], {})).toThrow(/host name/);
});
