/** The CLI, spawned as users run it (the built bin), always on port 0. */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { flagName, settings } from '../../src/options.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const running: ChildProcess[] = [];

afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
});

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 10_000,
  });
}

/** Starts the bin and resolves with its output once it prints that it is ready. */
function start(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; output: string; origin: string }> {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
  running.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /control API:\s+(https?:\/\/\S+)\/_emulator/.exec(output);
      if (match && output.includes('try:')) resolve({ child, output, origin: match[1] as string });
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited with ${code} before ready: ${output}`)));
  });
}

const auth = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` });

test('starts on a free port, prints live and sandbox URLs and the default credentials, and serves them', async () => {
  const { output, origin } = await start(['--port', '0']);
  expect(output).toContain(`live base URL:    ${origin}`);
  expect(output).toContain(`sandbox base URL: ${origin}/sandbox`);
  expect(output).toContain('pk_test_sms_emulator');
  expect(output).toContain('sk_test_sms_emulator');
  expect((await fetch(`${origin}/_emulator/health`)).status).toBe(200);
  const live = await fetch(`${origin}/v1/messages/balance`, { headers: auth('pk_test_sms_emulator') });
  expect(await live.json()).toMatchObject({ balance: 1000 });
  expect((await fetch(`${origin}/sandbox/v1/messages/balance`, { headers: auth('pk_test_sms_emulator') })).status).toBe(
    200,
  );
});

test('stops cleanly on SIGTERM and SIGINT', async () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const { child } = await start(['--port', '0']);
    const exited = new Promise<string>((resolve) => child.once('exit', (code, how) => resolve(`${code} ${how}`)));
    child.kill(signal);
    expect(await exited).toBe('0 null');
  }
});

test('a stop signal exits 0 even when stdout was closed (the goodbye line meets EPIPE)', async () => {
  const { child } = await start(['--port', '0']);
  const exited = new Promise<string>((resolve) => child.once('exit', (code, how) => resolve(`${code} ${how}`)));
  child.stdout?.destroy();
  child.kill('SIGTERM');
  expect(await exited).toBe('0 null');
});

/** Starts the bin, stops it with SIGTERM once ready, and resolves with everything it wrote (stderr may trail stdout). */
async function outputOfRun(args: string[]): Promise<string> {
  const { child, output } = await start(args);
  let stderr = output;
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  return stderr;
}

test('listening beyond loopback without a control token prints a warning on stderr; with one it does not', async () => {
  expect(await outputOfRun(['--port', '0', '--host', '0.0.0.0'])).toMatch(
    /warning: listening on 0\.0\.0\.0, reachable from other machines, without a control token/,
  );
  expect(await outputOfRun(['--port', '0', '--host', '0.0.0.0', '--control-token', 't0ken'])).not.toContain('warning');
  expect(await outputOfRun(['--port', '0'])).not.toContain('warning');
});

test('--public-url puts the public origin in the banner, with the address listened on beside it', async () => {
  const { output } = await start(['--port', '0', '--public-url', 'http://sms.example.test:8080']);
  expect(output).toContain('live base URL:    http://sms.example.test:8080');
  expect(output).toMatch(/listening on: +http:\/\/127\.0\.0\.1:\d+/);
});

test('--tls serves HTTPS and the banner prints the certificate fingerprint', async () => {
  const { output, origin } = await start(['--port', '0', '--tls']);
  expect(origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(output).toMatch(/TLS certificate: +SHA-256 ([0-9A-F]{2}:){31}[0-9A-F]{2} +\(self-signed, made at start\)/);
});

test('flags set the default account; environment twins work and flags win over them', async () => {
  const { origin } = await start(['--port', '0', '--api-key', 'pk_ci', '--balance', '7'], {
    SMS_EMULATOR_BALANCE: '99',
    SMS_EMULATOR_SIGNING_SECRET: 'env-secret',
  });
  const reply = await fetch(`${origin}/v1/messages/balance`, { headers: auth('pk_ci') });
  expect(await reply.json()).toMatchObject({ balance: 7 });
  const accounts = (await (await fetch(`${origin}/_emulator/accounts`)).json()) as {
    items: { signingSecret: string }[];
  };
  expect(accounts.items[0]?.signingSecret).toBe('env-secret');
});

test('--clock manual with --start-time holds the clock still', async () => {
  const { origin } = await start(['--port=0', '--clock', 'manual', '--start-time', '2026-11-21T10:00:00Z']);
  const clock = (await (await fetch(`${origin}/_emulator/clock`)).json()) as { time: string; mode: string };
  expect(clock).toMatchObject({ time: '2026-11-21T12:00:00+02:00', mode: 'manual' });
});

test('--help lists every flag with its environment twin; --version prints the version', () => {
  const help = run(['--help']);
  expect(help.status).toBe(0);
  for (const name of Object.keys(settings) as (keyof typeof settings)[]) {
    if (settings[name].cli) expect(help.stdout).toContain(flagName(name));
  }
  expect(help.stdout).toContain('SMS_EMULATOR_PORT');
  const version = run(['--version']);
  expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
});

test.each([
  [['--colour', 'red'], /unknown flag --colour/],
  [['--port', 'abc'], /--port \(SMS_EMULATOR_PORT\): .*number/],
  [['--port'], /--port \(SMS_EMULATOR_PORT\) needs a value/],
  [
    ['--allowed-hosts', 'good.test,bad host'],
    /--allowed-hosts \(SMS_EMULATOR_ALLOWED_HOSTS\): item 2: expected a host name/,
  ],
  [['--error-envelope', 'fancy'], /--error-envelope \(SMS_EMULATOR_ERROR_ENVELOPE\): .*bare/],
  [['stray'], /unknown command "stray".\nRun sms-emulator --help for the commands/],
])('exits non-zero with a clear message for %j', (args, message) => {
  const result = run(args);
  expect(result.status).not.toBe(0);
  expect(result.stderr).toMatch(message);
});

test('exits non-zero with a clear message when the port is busy', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    const result = run(['--port', String(port)]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
  } finally {
    blocker.close();
  }
});

test("--webhook-url sends the default account's notifications there; a 500 receiver gets four tries, then the event is failed", async () => {
  const { createWebhookCatcher, signRequest } = await import('../../src/index.js');
  const catcher = await createWebhookCatcher();
  try {
    const { origin } = await start(['--port', '0', '--clock', 'manual', '--webhook-url', catcher.url]);
    const body = { recipient: ['27831234567'], message: 'Hi', client_reference: 'cli-ref' };
    const sendAndAdvance = async (advance: string): Promise<string> => {
      const sent = await fetch(`${origin}/v1/messages`, {
        method: 'POST',
        headers: {
          ...auth('pk_test_sms_emulator'),
          'content-type': 'application/json',
          signature: signRequest(body, 'sk_test_sms_emulator'),
        },
        body: JSON.stringify(body),
      });
      const { id } = (await sent.json()) as { id: string };
      await fetch(`${origin}/_emulator/clock`, { method: 'POST', body: JSON.stringify({ advance }) });
      return id;
    };
    await sendAndAdvance('5s');
    expect(catcher.received.map((request) => [request.body.status, request.body.client_reference])).toEqual([
      ['submitted', 'cli-ref'],
      ['delivered', 'cli-ref'],
    ]);
    catcher.respondWith(500);
    catcher.clear();
    const failing = await sendAndAdvance('1s');
    const log = (await (await fetch(`${origin}/_emulator/webhooks?message=${failing}`)).json()) as {
      items: { state: string; attempts: unknown[] }[];
    };
    expect(log.items).toEqual([expect.objectContaining({ state: 'failed', attempts: expect.any(Array) })]);
    expect(log.items[0]?.attempts).toHaveLength(4);
    expect(catcher.received).toHaveLength(4);
  } finally {
    await catcher.close();
  }
});

const scenarioFiles = [
  'default',
  'happy-path',
  'flaky-network',
  'credit-exhaustion',
  'opt-outs',
  'conversational',
  'rate-limited',
  'degraded-api',
];

test.each(scenarioFiles)('starts with --scenario scenarios/%s.yaml and serves it', async (name) => {
  const path = fileURLToPath(new URL(`../../scenarios/${name}.yaml`, import.meta.url));
  const { origin } = await start(['--port', '0', '--scenario', path]);
  const active = (await (await fetch(`${origin}/_emulator/scenario`)).json()) as { description: string };
  expect(active.description.length).toBeGreaterThan(10);
  expect((await fetch(`${origin}/_emulator/health`)).status).toBe(200);
});

test('repeated --scenario flags extend one scenario with the next', async () => {
  const path = (name: string) => fileURLToPath(new URL(`../../scenarios/${name}.yaml`, import.meta.url));
  const { origin } = await start(['--port', '0', '--scenario', path('default'), '--scenario', path('rate-limited')]);
  const active = (await (await fetch(`${origin}/_emulator/scenario`)).json()) as {
    rules: unknown[];
    faults: unknown[];
  };
  expect([active.rules.length, active.faults.length]).toEqual([9, 1]);
});

test('a broken scenario stops start-up with a non-zero exit and the line of the mistake', () => {
  const path = fileURLToPath(new URL('../fixtures/scenarios/illegal-timeline.yaml', import.meta.url));
  const result = run(['--port', '0', '--scenario', path]);
  expect(result.status).not.toBe(0);
  expect(result.stderr).toMatch(
    /illegal-timeline\.yaml:7:\d+: rules\[0\]\.outcome\.timeline\[1\]\.status: a leg cannot go from delivered to submitted/,
  );
});

test('the banner prints the web inbox address, which serves the page; --no-ui leaves both out', async () => {
  const { output, origin } = await start(['--port', '0']);
  expect(output).toContain(`web inbox:        ${origin}/_emulator/ui`);
  expect((await fetch(`${origin}/_emulator/ui`)).headers.get('content-type')).toMatch(/^text\/html/);
  const off = await start(['--port', '0', '--no-ui']);
  expect(off.output).not.toContain('web inbox');
  expect((await fetch(`${off.origin}/_emulator/ui`)).status).toBe(404);
});

test('--report-on-exit writes the timeline report when the process is stopped', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'sms-cli-report-'));
  const path = join(folder, 'timeline.html');
  const { child, origin } = await start(['--port', '0', '--clock', 'manual', '--report-on-exit', path]);
  await fetch(`${origin}/_emulator/clock`, {
    method: 'POST',
    body: JSON.stringify({ advance: '1h' }),
    headers: { 'content-type': 'application/json' },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  expect(readFileSync(path, 'utf8')).toMatch(/<!doctype html>[\s\S]*clock moved/);
});

test('every address the banner prints answers 200 (API addresses with the default key)', async () => {
  const { output } = await start(['--port', '0', '--clock', 'manual']);
  const addresses = [...new Set(output.match(/https?:\/\/[^\s)]+/g) ?? [])];
  expect(addresses.length).toBeGreaterThanOrEqual(6);
  for (const address of addresses) {
    const response = await fetch(address, { headers: auth('pk_test_sms_emulator') });
    await response.body?.cancel();
    expect({ address, status: response.status }).toEqual({ address, status: 200 });
  }
});
