/**
 * A secret planted through every input route (webhook URLs of the default account and of a world, record's --upstream
 * and --relay, Basic passwords, Bearer tokens and Proxy-Authorization on requests to the emulator and through the
 * recorder, a check-receiver URL, a chosen signing secret) is found in no output: control API answers, the inbox's
 * stream, the timeline report in both formats, the journal, log lines, transcripts and everything the CLI prints.
 */

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { signRequest } from '../../src/domain/signing.js';
import { readEvents } from '../support/sse.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sms-emulator-planted-'));
const key = 'pk_test_sms_emulator';

/** Every planted secret by where it went in. */
const planted = {
  accountWebhookPassword: 'pw-PLANTED-1',
  worldWebhookPassword: 'pw-PLANTED-2',
  upstreamPassword: 'pw-PLANTED-3',
  relayPassword: 'pw-PLANTED-4',
  bearerToken: 'tok-PLANTED-5',
  basicPassword: 'pw-PLANTED-6',
  proxyPassword: 'proxy-PLANTED-7',
  checkReceiverPassword: 'pw-PLANTED-9',
};
/** A signing secret the user chose: the control API shows it by design (catchers check signatures with it), nothing else. */
const signingSecret = 'sk-PLANTED-8';

const basicOf = (pair: string): string => `Basic ${Buffer.from(pair).toString('base64')}`;
const basicWithPassword = basicOf(`${key}:${planted.basicPassword}`);
const proxyAuthorization = basicOf(`proxy-user:${planted.proxyPassword}`);

/** What a leak looks like in a text: a planted secret as it was given, or inside the base64 of a Basic value. */
function leaksIn(text: string, withSigningSecret: boolean): string[] {
  const needles = [
    ...Object.values(planted),
    basicWithPassword.slice('Basic '.length),
    proxyAuthorization.slice('Basic '.length),
    ...(withSigningSecret ? [signingSecret] : []),
  ];
  return needles.filter((needle) => text.includes(needle));
}

/** Every output gathered, by name; `signing` says whether the signing secret counts as a leak there. */
const outputs: { name: string; text: string; signing: boolean }[] = [];
const shown = (name: string, text: string, signing = true): void => void outputs.push({ name, text, signing });

let receiver: Server;
let receiverOrigin: string;
const received: { path: string; authorization: string | undefined }[] = [];
let emulator: ChildProcess;
let emulatorOutput = '';
let origin: string;

function listenHttp(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { PATH: process.env.PATH ?? '' }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function controlCall(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${origin}/_emulator${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

async function sendAs(base: string, headers: Record<string, string>, secret = signingSecret): Promise<Response> {
  const fields = { recipient: ['27831234567'], message: 'hello', client_reference: 'planted' };
  return fetch(`${base}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', signature: signRequest(fields, secret), ...headers },
    body: JSON.stringify(fields),
  });
}

beforeAll(async () => {
  receiver = createServer((request: IncomingMessage, response) => {
    received.push({ path: request.url ?? '', authorization: request.headers.authorization });
    request.resume();
    request.on('end', () => response.end('ok'));
  });
  receiverOrigin = await listenHttp(receiver);
  const port = receiverOrigin.slice(receiverOrigin.lastIndexOf(':') + 1);
  emulator = spawn(process.execPath, [
    bin,
    '--port',
    '0',
    '--clock',
    'manual',
    '--log-requests',
    '--webhook-url',
    `http://hook:${planted.accountWebhookPassword}@127.0.0.1:${port}/account`,
    '--signing-secret',
    signingSecret,
  ]);
  emulator.stderr?.on('data', (chunk: Buffer) => (emulatorOutput += chunk.toString()));
  origin = await new Promise<string>((resolve, reject) => {
    emulator.stdout?.on('data', (chunk: Buffer) => {
      emulatorOutput += chunk.toString();
      const match = /control API:\s+(http:\/\/\S+)\/_emulator/.exec(emulatorOutput);
      if (match && emulatorOutput.includes('try:')) resolve(match[1] as string);
    });
    emulator.once('exit', (code) => reject(new Error(`the emulator exited with ${code}: ${emulatorOutput}`)));
  });
}, 60_000);

afterAll(async () => {
  emulator?.kill('SIGKILL');
  await new Promise((resolve) => receiver?.close(resolve));
});

test('delivers to a webhook URL with its password, and shows that password nowhere the emulator shows things', async () => {
  const world = await controlCall('POST', '/worlds', {
    account: { webhookUrl: `http://world:${planted.worldWebhookPassword}@${receiverOrigin.slice(7)}/world` },
  });
  expect(world.status).toBe(201);
  shown('world answer', world.text, false);
  const worldKey = (JSON.parse(world.text) as { account: { apiKey: string; signingSecret: string } }).account;

  // Requests carrying credentials the emulator does not read: a Basic password, a proxy's, a Bearer token.
  expect(
    (await sendAs(origin, { authorization: basicWithPassword, 'proxy-authorization': proxyAuthorization })).status,
  ).toBe(201);
  expect((await sendAs(origin, { authorization: `Bearer ${planted.bearerToken}` })).status).toBe(401);
  const worldSend = await sendAs(
    origin,
    { authorization: basicOf(`${worldKey.apiKey}:${planted.basicPassword}`) },
    worldKey.signingSecret,
  );
  expect(worldSend.status).toBe(201);
  const worldClock = (JSON.parse(world.text) as { clock: { id: string } }).clock.id;
  expect((await controlCall('POST', '/clock', { advance: '1h' })).status).toBe(200);
  expect((await controlCall('POST', `/clocks/${worldClock}`, { advance: '1h' })).status).toBe(200);

  // The webhooks went out with their URLs' passwords, as Basic credentials.
  expect(received.map((post) => post.authorization)).toContain(basicOf(`hook:${planted.accountWebhookPassword}`));
  expect(received.map((post) => post.authorization)).toContain(basicOf(`world:${planted.worldWebhookPassword}`));

  const list = await controlCall('GET', '/webhooks?limit=100');
  shown('webhook list', list.text);
  const [first] = (JSON.parse(list.text) as { items: { id: string; url: string }[] }).items;
  expect(first?.url).toMatch(/^http:\/\/(hook|world):\*\*\*@127\.0\.0\.1:\d+\//);
  shown('webhook event', (await controlCall('GET', `/webhooks/${first?.id}`)).text);
  shown('redelivery', (await controlCall('POST', `/webhooks/${first?.id}/redeliver`)).text);
  shown('accounts', (await controlCall('GET', '/accounts')).text, false);
  shown('account', (await controlCall('GET', `/accounts/${key}`)).text, false);
  shown('journal', (await controlCall('GET', '/requests?limit=100')).text);
  for (const account of [key, worldKey.apiKey])
    for (const format of ['html', 'json']) {
      const report = await controlCall('GET', `/report?account=${account}&format=${format}`);
      expect(report.status).toBe(200);
      shown(`report ${format} of ${account}`, report.text);
    }
  const refused = await controlCall('PATCH', `/accounts/${key}`, {
    live: { webhookUrl: `ftp://bad:${planted.accountWebhookPassword}@127.0.0.1/x` },
  });
  expect(refused.status).toBe(400);
  shown('refused webhook URL', refused.text);

  const stream = await fetch(`${origin}/_emulator/ui/events`);
  const events = readEvents(stream);
  shown('inbox stream', JSON.stringify((await events.next()).data), false);
  await events.cancel();

  shown('emulator banner and log lines', emulatorOutput);
  for (const args of [
    ['webhooks', 'list', '--url', origin],
    ['accounts', 'get', key, '--url', origin],
    ['transcript', '--url', origin],
    [
      'accounts',
      'update',
      key,
      '--body',
      `{"live":{"webhookUrl":"ftp://u:${planted.accountWebhookPassword}@x"}}`,
      '--url',
      origin,
    ],
  ]) {
    const run = await cli(args);
    shown(`sms-emulator ${args.slice(0, 2).join(' ')}`, run.stdout + run.stderr, args[0] !== 'accounts');
  }
  for (const { name, text, signing } of outputs.splice(0))
    expect({ name, leaks: leaksIn(text, signing) }).toEqual({ name, leaks: [] });
  expect(emulatorOutput).toContain('signing secret:   ***');
}, 60_000);

test('check-receiver shows its URL and state hook with their passwords masked, in every format and error', async () => {
  const url = `http://check:${planted.checkReceiverPassword}@${receiverOrigin.slice(7)}/check`;
  const report = join(dir, 'report.html');
  for (const args of [
    ['check-receiver', url, '--only', 'statuses'],
    ['check-receiver', url, '--only', 'statuses', '--json', '--report', report],
    ['check-receiver', `http://check:${planted.checkReceiverPassword}@127.0.0.1:1/down`, '--only', 'statuses'],
    ['check-receiver', `ftp://check:${planted.checkReceiverPassword}@127.0.0.1/x`],
    ['check-receiver', url, '--state', `ftp://check:${planted.checkReceiverPassword}@127.0.0.1/{id}`],
  ]) {
    const run = await cli(args);
    // Refused (2) with a URL that is not http(s), else scored (0 or 1).
    const refused = args.some((arg) => arg.startsWith('ftp:'));
    expect(refused ? [2] : [0, 1]).toContain(run.code);
    expect({ args, leaks: leaksIn(run.stdout + run.stderr, true) }).toEqual({ args, leaks: [] });
  }
  expect(leaksIn(readFileSync(report, 'utf8'), true)).toEqual([]);
  expect(received.map((post) => post.authorization)).toContain(basicOf(`check:${planted.checkReceiverPassword}`));
  const control = await controlCall('POST', '/receiver-check', { receiver: url, only: ['statuses'] });
  expect(control.status).toBe(200);
  expect(leaksIn(control.text, true)).toEqual([]);
}, 60_000);

test('record keeps no password of --upstream or --relay, nor any request credential, in what it prints or writes', async () => {
  const out = join(dir, 'recorded.jsonl');
  const upstream = `http://up:${planted.upstreamPassword}@${origin.slice(7)}`;
  const relay = `http://relay:${planted.relayPassword}@${receiverOrigin.slice(7)}/relay`;
  const recorder = spawn(process.execPath, [
    bin,
    'record',
    '--upstream',
    upstream,
    '--relay',
    relay,
    '--out',
    out,
    '--port',
    '0',
  ]);
  let printed = '';
  recorder.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const base = await new Promise<string>((resolve, reject) => {
    recorder.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const match = /base URL:\s+(http:\/\/\S+)/.exec(printed);
      if (match) resolve(match[1] as string);
    });
    recorder.once('exit', (code) => reject(new Error(`record exited ${code}: ${printed}`)));
  });
  expect(
    (await sendAs(base, { authorization: basicWithPassword, 'proxy-authorization': proxyAuthorization })).status,
  ).toBe(201);
  expect((await sendAs(base, { authorization: `Bearer ${planted.bearerToken}` })).status).toBe(401);
  const hook = await fetch(`${base}/_record/webhook`, { method: 'POST', body: '{"type":"sms-status"}' });
  shown('recorder answer to a webhook', await hook.text());
  const exited = new Promise((resolve) => recorder.once('exit', resolve));
  recorder.kill('SIGTERM');
  await exited;
  const transcript = readFileSync(out, 'utf8');
  shown('record output', printed);
  shown('transcript', transcript);
  const recheck = await cli([
    'parity',
    'recheck',
    out,
    '--upstream',
    upstream,
    '--api-key',
    key,
    '--signing-secret',
    signingSecret,
  ]);
  shown('parity recheck', recheck.stdout + recheck.stderr);
  const bad = await cli([
    'record',
    '--upstream',
    `http://up:${planted.upstreamPassword}@exa mple`,
    '--out',
    join(dir, 'x.jsonl'),
  ]);
  expect(bad.code).toBe(2);
  shown('record refusing a URL', bad.stderr);
  for (const { name, text, signing } of outputs.splice(0))
    expect({ name, leaks: leaksIn(text, signing) }).toEqual({ name, leaks: [] });
  // Still replayable: the Basic key is a placeholder, the Bearer token masked, and a replay finds nothing amiss.
  expect(transcript).toContain('"authorization":"Basic {{key}}"');
  expect(transcript).toContain('"authorization":"Bearer ***"');
  const diff = await cli(['parity', 'diff', out]);
  expect(diff.stdout).toContain('0 error');
}, 60_000);
