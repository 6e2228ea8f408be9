import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { type EmulatorProcess, startEmulator } from '../../src/testing/startEmulator.js';
import { isGone, isGroupGone, untilGone } from '../support/processes.js';

const started: EmulatorProcess[] = [];
afterEach(async () => {
  for (const emulator of started.splice(0)) await emulator.stop();
});

async function start(options: Parameters<typeof startEmulator>[0] = {}): Promise<EmulatorProcess> {
  const emulator = await startEmulator(options);
  started.push(emulator);
  return emulator;
}

const exited = (pid: number): Promise<void> => untilGone(pid);

test('the control token and the other secrets reach the process through its environment, never its command line', async () => {
  const secrets = {
    controlToken: 'tok-7f3a91',
    signingSecret: 'sk_sig-55e2',
    webhookSigningSecret: 'whsec-19c4',
    apiKey: 'pk_key-2b8d',
  };
  const emulator = await start(secrets);
  const argv = readFileSync(`/proc/${emulator.pid}/cmdline`, 'utf8');
  expect(argv).toContain('--port=0');
  for (const secret of Object.values(secrets)) expect(argv).not.toContain(secret);
  expect(emulator.info).toMatchObject({ apiKey: secrets.apiKey, signingSecret: secrets.signingSecret });
  const clock = (authorization?: string) =>
    fetch(`${emulator.info.origin}/_emulator/clock`, { headers: authorization ? { authorization } : {} });
  expect((await clock()).status).toBe(401);
  expect((await clock(`Bearer ${secrets.controlToken}`)).status).toBe(200);
});

test('starts the CLI on a free port and resolves with its URLs and credentials once it serves them', async () => {
  const emulator = await start();
  expect(emulator.info).toMatchObject({
    apiKey: 'pk_test_sms_emulator',
    signingSecret: 'sk_test_sms_emulator',
    pid: emulator.pid,
  });
  expect(emulator.info.port).toBeGreaterThan(0);
  const sms = createClient({
    baseUrl: emulator.info.live,
    apiKey: emulator.info.apiKey,
    signingSecret: emulator.info.signingSecret,
  });
  expect((await sms.balance()).balance).toBe(1000);
});

test('the reported pid is the emulator itself, node running the bin: kill <pid> leaves no process behind', async () => {
  const emulator = await start();
  const commandLine = readFileSync(`/proc/${emulator.pid}/cmdline`, 'utf8').split('\0');
  expect(commandLine.slice(0, 2)).toEqual([
    process.execPath,
    fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url)),
  ]);
  process.kill(emulator.pid, 'SIGTERM');
  await emulator.exited;
  expect(isGone(emulator.pid)).toBe(true);
  expect(isGroupGone(emulator.pid)).toBe(true);
});

test('stop() ends the process and its group, and can be called twice', async () => {
  const emulator = await start();
  await emulator.stop();
  await emulator.stop();
  expect(isGone(emulator.pid)).toBe(true);
  expect(isGroupGone(emulator.pid)).toBe(true);
});

test('options become CLI flags, scenario objects included', async () => {
  const emulator = await start({
    apiKey: 'pk_ci',
    balance: 7,
    clock: 'manual',
    seed: 'seeded',
    notifyOn: ['delivered', 'failed'],
    scenario: { version: 1, accounts: [{ apiKey: 'pk_team', balance: 3 }] },
  });
  expect(emulator.info).toMatchObject({ apiKey: 'pk_ci', balance: 7, clock: 'manual', seed: 'seeded' });
  const team = createClient({ baseUrl: emulator.info.live, apiKey: 'pk_team', signingSecret: 'sk_test_team' });
  expect((await team.balance()).balance).toBe(3);
});

test('rejects with what the process printed when it exits before it is ready', async () => {
  await expect(startEmulator({ balance: -1 })).rejects.toThrow(/exited \(code 2\) before it was ready:[\s\S]*balance/);
});

test('an emulator whose test process exits without stopping it is killed with that process', async () => {
  const module = fileURLToPath(new URL('../../dist/testing/startEmulator.js', import.meta.url));
  const script = `import { startEmulator } from ${JSON.stringify(module)}; const e = await startEmulator(); console.log(e.pid); process.exit(0);`;
  const parent = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dirname(module),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  parent.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  await new Promise((resolve) => parent.once('exit', resolve));
  const pid = Number(printed.trim());
  expect(pid).toBeGreaterThan(0);
  await exited(pid);
  expect(isGone(pid)).toBe(true);
});

test('refuses an unknown option before starting anything', async () => {
  await expect(startEmulator({ colour: 'blue' } as never)).rejects.toThrow(/unknown option colour/);
});

test('answers the control handle of the process itself: clock, accounts, messages, report, reset, waitFor without connect()', async () => {
  const emulator = await start({ clock: 'manual', seed: 'handle', startTime: '2026-11-21T10:00:00Z' });
  await emulator.accounts.create({ apiKey: 'pk_handle', balance: 5 });
  const sms = createClient({ baseUrl: emulator.urls.live, apiKey: 'pk_handle', signingSecret: 'sk_test_handle' });
  const sent = await sms.send({ recipient: '27831234567', message: 'Over the handle' });
  expect((await emulator.waitFor(sent.id).toReach('delivered')).status).toBe('delivered');
  expect((await emulator.clock.state()).time).not.toBe('2026-11-21T12:00:00+02:00');
  expect(await emulator.report({ account: 'pk_handle' })).toContain(sent.id);
  await emulator.reset();
  await expect(emulator.accounts.get('pk_handle')).rejects.toMatchObject({ code: 'CONTROL_NOT_FOUND' });
});
