/** The bundled scenarios by name, over the control API, the handles and the CLI: no file or checkout needed. */

import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { parseScenario } from '../../src/engine/scenario/parse.js';
import { type Emulator, connect, createEmulator } from '../../src/index.js';
import { call } from '../support/api.js';

const bundledDir = fileURLToPath(new URL('../../scenarios/', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const shipped = readdirSync(bundledDir)
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => file.replace(/\.yaml$/, ''))
  .sort();

let emulator: Emulator;
let origin: string;
beforeEach(async () => {
  emulator = createEmulator({ clock: 'manual', seed: 'bundled' });
  origin = (await emulator.listen({ port: 0 })).origin;
});
afterEach(() => emulator.close());

const fileScenario = (name: string) => parseScenario(readFileSync(`${bundledDir}${name}.yaml`, 'utf8'), `${name}.yaml`);

test('GET /_emulator/scenario/bundled lists every scenario the package ships, each with its description', async () => {
  const answer = await fetch(`${origin}/_emulator/scenario/bundled`);
  expect(answer.status).toBe(200);
  const { scenarios } = (await answer.json()) as { scenarios: { name: string; description: string }[] };
  expect(scenarios.map((entry) => entry.name)).toEqual(shipped);
  for (const entry of scenarios) expect(entry.description).toBe(fileScenario(entry.name).description);
});

test('PUT /_emulator/scenario/bundled/happy-path makes it the active scenario, as PUT /scenario with the file would', async () => {
  const answer = await fetch(`${origin}/_emulator/scenario/bundled/happy-path`, { method: 'PUT' });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual(JSON.parse(JSON.stringify(fileScenario('happy-path'))));
  expect(emulator.scenario.get()).toEqual(fileScenario('happy-path'));
});

test('an unknown or path-like name is CONTROL_NOT_FOUND listing the names, and the active scenario stays', async () => {
  const before = emulator.scenario.get();
  for (const name of ['happy-paths', '..%2Fpackage', 'scenario.schema']) {
    const answer = await fetch(`${origin}/_emulator/scenario/bundled/${name}`, { method: 'PUT' });
    expect(answer.status).toBe(404);
    const body = (await answer.json()) as { message: string; description: string };
    expect(body.message).toBe('CONTROL_NOT_FOUND');
    expect(body.description).toContain(`the bundled ones are ${shipped.join(', ')}`);
  }
  expect(emulator.scenario.get()).toEqual(before);
});

test("an account takes a bundled scenario as its own: its sends meet the faults, another account's do not", async () => {
  const remote = connect(origin);
  const troubled = await remote.worlds.create({});
  const calm = await remote.worlds.create({});
  const own = await remote.accounts.useBundledScenario(troubled.account.apiKey, 'degraded-api');
  expect(own.faults).toEqual(fileScenario('degraded-api').faults);
  const sendAs = (account: { apiKey: string; signingSecret: string }) =>
    call(emulator, 'POST', '/v1/messages', {
      body: { recipient: ['27831234567'], message: 'Hello' },
      key: account.apiKey,
      sign: account.signingSecret,
    });
  expect((await sendAs(troubled.account)).status).toBe(503);
  expect((await sendAs(calm.account)).status).toBe(201);
});

test("every bundled scenario loads by name as the emulator's and as one account's own, over HTTP", async () => {
  const { account } = emulator.worlds.create({});
  for (const name of shipped) {
    const global = await fetch(`${origin}/_emulator/scenario/bundled/${name}`, { method: 'PUT' });
    expect([name, global.status, await global.text()]).toEqual([name, 200, expect.any(String)]);
    expect(emulator.scenario.get()).toEqual(fileScenario(name));
    const own = await fetch(`${origin}/_emulator/accounts/${account.apiKey}/scenario/bundled/${name}`, {
      method: 'PUT',
    });
    expect([name, own.status]).toEqual([name, 200]);
    const file = fileScenario(name);
    expect(emulator.accounts.getScenario(account.apiKey)).toMatchObject({
      rules: file.rules,
      replies: file.replies,
      faults: file.faults,
      webhooks: file.webhooks,
    });
  }
});

test("per account, a bundled scenario's balance, opt-outs and timeline act on that account and its clock only", async () => {
  const mine = emulator.worlds.create({ account: { balance: 500 } });
  const other = emulator.worlds.create({ account: { balance: 500 } });
  emulator.accounts.useBundledScenario(mine.account.apiKey, 'credit-exhaustion');
  expect(emulator.accounts.get(mine.account.apiKey).live.balance).toBe(10);
  emulator.clocks.advance(mine.clock.id, '10m');
  emulator.clocks.advance(other.clock.id, '10m');
  expect(emulator.accounts.get(mine.account.apiKey).live.balance).toBe(0);
  expect(emulator.accounts.get(other.account.apiKey).live.balance).toBe(500);
  expect(emulator.accounts.get(emulator.options.apiKey).live.balance).not.toBe(0);

  emulator.accounts.useBundledScenario(other.account.apiKey, 'opt-outs');
  expect(emulator.accounts.get(other.account.apiKey).live.optOuts).toContain('27835550000');
  expect(emulator.accounts.get(mine.account.apiKey).live.optOuts).not.toContain('27835550000');
});

test("clearing an account's bundled scenario stops its pending timeline events", async () => {
  const { account, clock } = emulator.worlds.create({ account: { balance: 500 } });
  emulator.accounts.useBundledScenario(account.apiKey, 'credit-exhaustion');
  emulator.accounts.clearScenario(account.apiKey);
  emulator.accounts.update(account.apiKey, { live: { balance: 70 } });
  emulator.clocks.advance(clock.id, '1h');
  expect(emulator.accounts.get(account.apiKey).live.balance).toBe(70);
});

test('an account whose own scenario says magicNumbers: false is not answered by the built-in magic numbers', async () => {
  emulator.scenario.set({ version: 1 });
  const { account, clock } = emulator.worlds.create({ scenario: { magicNumbers: false } });
  const sent = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27830000002'], message: 'Hello' },
    key: account.apiKey,
    sign: account.signingSecret,
  });
  expect(sent.status).toBe(201);
  const id = (sent.body as { id: string }).id;
  emulator.clocks.advance(clock.id, '1h');
  expect(emulator.messages.get(id).status).toBe('delivered');
});

test('sms-emulator scenario use-bundled <name> loads it from the CLI, outside any checkout', async () => {
  const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, 'scenario', 'use-bundled', 'rate-limited', '--url', origin],
      { cwd: '/', env: { PATH: process.env.PATH ?? '' }, timeout: 15_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(emulator.scenario.get().faults).toEqual(fileScenario('rate-limited').faults);
});
