/** The client commands (`sms-emulator clock advance 1h`), run as the built bin against an emulator listening on port 0. */

import { execFile } from 'node:child_process';
import { type AddressInfo, type Socket, createServer as createNetServer } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { commandList, kebab } from '../../src/cli/commandTable.js';
import { targetSettings } from '../../src/cli/commandTarget.js';
import { flagName } from '../../src/options.js';
import { statefulReceiver } from '../support/statefulReceiver.js';
import { runCommand } from '../../src/cli/runCommand.js';
import { writeReadyFile } from '../../src/cli/readyInfo.js';
import { encodeCall } from '../../src/control/call.js';
import { controlRouteOf, operationList } from '../../src/control/operationList.js';
import { type Emulator, createEmulator } from '../../src/index.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
let emulator: Emulator;
let origin: string;

beforeEach(async () => {
  emulator = createEmulator({ clock: 'manual', seed: 'commands' });
  origin = (await emulator.listen({ port: 0 })).origin;
});

afterEach(async () => {
  await emulator.close();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the bin without blocking this process's event loop (the emulator it drives answers from here). */
function cli(args: string[], env: Record<string, string> = {}, input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 15_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

async function json(args: string[], env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const run = await cli([...args, '--url', origin], env);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

test('clock advance 1h --url <origin> moves the clock by an hour and prints the clock as JSON', async () => {
  const before = emulator.clock.now().getTime();
  const run = await cli(['clock', 'advance', '1h', '--url', origin]);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  const clock = JSON.parse(run.stdout) as { now: number; time: string; mode: string };
  expect(clock.now - before).toBe(3_600_000);
  expect(clock).toMatchObject({ mode: 'manual', time: expect.any(String) });
  expect(emulator.clock.now().getTime()).toBe(before + 3_600_000);
});

test('every control operation in the table has a command, and --help lists each one', async () => {
  const names = commandList().map((command) => command.operationId);
  expect(names).toEqual(operationList().map(([operationId]) => operationId));
  const help = await cli(['--help']);
  expect(help.code).toBe(0);
  for (const command of commandList()) {
    const words = command.name.split(' ');
    const action = words.at(-1) as string;
    if (words.length === 2)
      expect(help.stdout, command.name).toMatch(new RegExp(`\\n  ${words[0]} +.*\\b${action}\\b`));
    else expect(help.stdout, command.name).toMatch(new RegExp(`\\b${action}\\b`));
    // Each command answers its own --help (in process: the same code the bin runs, without one process per command).
    const own = await runCommand([...words, '--help'], {});
    expect(own, command.name).toMatchObject({ exitCode: 0, stderr: '' });
    expect(own.stdout).toContain(`Usage: sms-emulator ${command.name}`);
  }
  const group = await cli(['clock', '--help']);
  expect(group.stdout).toContain('sms-emulator clock advance <duration>');
  expect(group.stdout).toContain('sms-emulator clock run-until-idle');
});

test('every shortcut command gives what its mapping needs: the called path filled, no field left undefined', () => {
  for (const command of commandList()) {
    if (command.mapping === undefined || command.via === undefined) continue;
    const passed = command.mapping(...command.positionals.map((positional) => `given-${positional.name}`));
    for (const arg of passed) {
      const fields = typeof arg === 'object' && arg !== null ? Object.entries(arg) : [];
      for (const [field, value] of fields)
        expect(value, `${command.name} leaves ${field} undefined: give it a positional hint`).toBeDefined();
    }
    const target = controlRouteOf(command.via);
    const request = encodeCall(target.method, target.path, target.args, passed);
    expect(request.path, command.name).not.toMatch(/[{}]|undefined|object/);
  }
});

test('send signs with the default account, messages list filters by status, replies inject opts out, reset starts over', async () => {
  const sent = await json(['send', '--to', '27831234567', '--text', 'Hi there', '--reference', 'shell-1']);
  expect(sent).toMatchObject({ status: 'pending', recipient: ['27831234567'], client_reference: 'shell-1' });
  await json(['clock', 'advance', '5s']);
  const delivered = await json(['messages', 'list', '--status', 'delivered']);
  expect(delivered).toMatchObject({ total: 1, items: [{ id: sent.id }] });
  expect(await json(['messages', 'list', '--status', 'undelivered'])).toMatchObject({ total: 0 });
  const replied = await json(['replies', 'inject', sent.id as string, 'STOP']);
  expect(replied).toMatchObject({ type: 'sms-reply', message: 'STOP' });
  expect(await json(['opt-outs', 'list'])).toMatchObject({ items: ['27831234567'] });
  expect(await json(['reset'])).toEqual({ status: 'reset' });
  expect(emulator.messages.list().total).toBe(0);
  expect(emulator.optOuts.list().items).toEqual([]);
});

test('flags fill the request: numbers and objects as JSON, kebab-case names, --body from a file, the account of sign', async () => {
  const created = await json([
    'accounts',
    'create',
    '--api-key',
    'pk_shell',
    '--balance',
    '5',
    '--webhook-url',
    'http://127.0.0.1:9/hook',
  ]);
  expect(created).toMatchObject({ apiKey: 'pk_shell', live: { balance: 5, webhookUrl: 'http://127.0.0.1:9/hook' } });
  expect(await json(['accounts', 'update', 'pk_shell', '--live', '{"addBalance": 10}'])).toMatchObject({
    live: { balance: 15 },
  });
  const body = join(mkdtempSync(join(tmpdir(), 'sms-commands-')), 'fields.json');
  writeFileSync(body, JSON.stringify({ recipient: ['27831234567'], message: 'a b' }));
  const signed = await json(['sign', '--body', `@${body}`, '--account', 'pk_shell']);
  expect(signed.string_to_sign).toBe('message=a%20b&recipient[]=27831234567');
  expect(signed).toEqual(emulator.sign({ recipient: ['27831234567'], message: 'a b' }, 'pk_shell'));
  expect(await json(['clock', 'configure', '--speed', '60'])).toMatchObject({ speed: 60 });
  expect(await cli(['accounts', 'delete', 'pk_shell', '--url', origin])).toEqual({ code: 0, stdout: '', stderr: '' });
});

test('scenario set reads a file (or standard input) and snapshot / restore round-trip the state', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sms-commands-'));
  const scenario = join(dir, 'scenario.yaml');
  writeFileSync(scenario, 'version: 1\ndescription: from the shell\n');
  expect(await json(['scenario', 'set', scenario])).toMatchObject({ description: 'from the shell' });
  const piped = await cli(['scenario', 'set', '-', '--url', origin], {}, 'version: 1\ndescription: piped\n');
  expect(JSON.parse(piped.stdout)).toMatchObject({ description: 'piped' });
  await json(['send', '--to', '27831234567', '--text', 'kept']);
  const snapshot = join(dir, 'snapshot.json');
  writeFileSync(snapshot, (await cli(['snapshot', '--url', origin])).stdout);
  await json(['reset']);
  expect(await json(['restore', '--body', `@${snapshot}`])).toEqual({ status: 'restored' });
  expect(emulator.messages.list().items.map((message) => message.message)).toEqual(['kept']);
});

test('the target and token come from the environment or the ready file; send uses the ready file account', async () => {
  await emulator.close();
  emulator = createEmulator({ clock: 'manual', controlToken: 'tok', apiKey: 'pk_other', signingSecret: 'sk_other' });
  const urls = await emulator.listen({ port: 0 });
  origin = urls.origin;
  const ready = join(mkdtempSync(join(tmpdir(), 'sms-commands-')), 'ready.json');
  const { readyInfo } = await import('../../src/cli/readyInfo.js');
  writeReadyFile(ready, readyInfo(emulator, urls, '0.0.0'));
  const refused = await cli(['clock', 'state'], { SMS_EMULATOR_URL: origin });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^sms-emulator: CONTROL_UNAUTHORIZED: /);
  const byEnv = await cli(['clock', 'state'], { SMS_EMULATOR_URL: origin, SMS_EMULATOR_CONTROL_TOKEN: 'tok' });
  expect(JSON.parse(byEnv.stdout)).toMatchObject({ mode: 'manual' });
  const byFile = await cli(['send', '--to', '27831234567', '--text', 'Hi', '--ready-file', ready]);
  expect(byFile.stderr).toBe('');
  expect(JSON.parse(byFile.stdout)).toMatchObject({ status: 'pending' });
  const wrongSecret = await cli([
    'send',
    '--to',
    '27831234567',
    '--text',
    'Hi',
    '--ready-file',
    ready,
    '--signing-secret',
    'sk_wrong',
  ]);
  expect(wrongSecret.code).toBe(1);
  expect(wrongSecret.stderr).toMatch(/^sms-emulator: SIGNATURE_MISMATCH: The Signature header does not match/);
});

test.each([
  [['frobnicate'], 2, /unknown command "frobnicate"/],
  [['clock'], 2, /clock needs an action: state, move, now, advance/],
  [['clock', 'rewind'], 2, /unknown action "rewind" of clock; its actions: /],
  [['clock', 'advance'], 2, /clock advance needs <duration>/],
  [['clock', 'advance', '1h', 'extra'], 2, /unexpected argument "extra"/],
  [['clock', 'next', '--limit', '5d'], 2, /clock next does not take --limit/],
  [
    ['messages', 'list', '--colour', 'red'],
    2,
    /unknown flag --colour for messages list; it takes --environment, --account, --status, --recipient, --client-reference, --page, --limit/,
  ],
  [['health', '--status', 'x'], 2, /unknown flag --status for health/],
  [['reset', '--url', 'ftp://x'], 2, /--url \(SMS_EMULATOR_URL\): /],
  [['restore', '--body', '[1]'], 2, /--body needs a JSON object/],
  [['accounts', 'get', ''], 2, /<key> is empty/],
  [['webhooks', 'set-chaos', '--duplicate-rate', '2'], 1, /duplicateRate: Too big: expected number to be <=1/],
  [['accounts', 'create', '--api-key', '123'], 1, /apiKey: .*pk_/],
  [['send', '--text', 'Hi'], 2, /send needs --to <number>/],
  [['accounts', 'get', 'pk_nope'], 1, /^sms-emulator: CONTROL_NOT_FOUND: No account has the API key "pk_nope"\.\n$/],
  [['clock', 'advance', 'soon'], 1, /^sms-emulator: CONTROL_INVALID_REQUEST: /],
  [['clocks', 'create', '--name'], 2, /^sms-emulator: --name needs a value\.\nRun sms-emulator clocks create --help/],
  [['accounts', 'update', 'pk_test_sms_emulator', '--signing-secret'], 2, /--signing-secret needs a value/],
  [['health', '--timeout', 'soon'], 2, /--timeout \(SMS_EMULATOR_TIMEOUT\): expected a duration/],
])('%j exits %i with a clear message on standard error and nothing on standard output', async (args, code, message) => {
  const run = await cli([...args, ...(args.includes('--url') ? [] : ['--url', origin])]);
  expect(run.code).toBe(code);
  expect(run.stderr).toMatch(message);
  expect(run.stdout).toBe('');
});

test('a command against an address where nothing listens says so and exits 1', async () => {
  await emulator.close();
  const run = await cli(['clock', 'state', '--url', origin]);
  emulator = createEmulator();
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/no answer from .*is the emulator running there\?/);
  const missing = await cli(['clock', 'state', '--ready-file', join(tmpdir(), 'sms-no-such-ready.json')]);
  expect(missing.stderr).toMatch(/cannot read the ready file .*was the emulator started with --ready-file/);
});

test('a command against a port that accepts and never answers gives up after --timeout, says so and exits 1', async () => {
  const sockets = new Set<Socket>();
  const silent = createNetServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  try {
    const byFlag = await cli(['health', '--url', url, '--timeout', '300ms']);
    expect(byFlag.code).toBe(1);
    expect(byFlag.stderr).toMatch(/nothing answered within 300ms; --timeout or SMS_EMULATOR_TIMEOUT waits longer/);
    const byVariable = await cli(['clock', 'state', '--url', url], { SMS_EMULATOR_TIMEOUT: '200ms' });
    expect(byVariable.code).toBe(1);
    expect(byVariable.stderr).toMatch(/nothing answered within 200ms/);
  } finally {
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});

test('a bare flag stays true for a field that takes it', async () => {
  const moved = await json(['clock', 'move', '--run-until-idle']);
  expect(moved).toMatchObject({ run: expect.objectContaining({ idle: true }) });
});

test("no command's own flag is a connection flag, which every command takes first (it would never reach the operation)", () => {
  // --api-key and --signing-secret are connection flags of send only.
  const connection = targetSettings
    .filter((name) => name !== 'apiKey' && name !== 'signingSecret')
    .map((name) => flagName(name));
  for (const command of commandList()) {
    const own = [...Object.keys(command.fields?.shape ?? {}), ...command.scalarFlags.map((flag) => flag.name)].map(
      (name) => `--${kebab(name)}`,
    );
    expect(
      own.filter((flag) => connection.includes(flag)),
      command.name,
    ).toEqual([]);
  }
});

test('receiver-check --receiver <url> runs check-receiver from the emulator and prints its report', async () => {
  const receiver = await statefulReceiver('last-wins');
  try {
    const report = await json([
      'receiver-check',
      '--receiver',
      receiver.url,
      '--state',
      receiver.state,
      '--only',
      '["out-of-order"]',
      '--receiver-timeout',
      '5s',
    ]);
    expect(report).toMatchObject({ passed: false, state: receiver.state, checks: [{ name: 'out-of-order' }] });
  } finally {
    await receiver.close();
  }
});
