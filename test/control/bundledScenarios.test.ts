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

test('a bundled scenario holding more than an account scenario can is refused for an account, which keeps its own', async () => {
  const { account } = emulator.worlds.create({ scenario: { faults: [{ error: { status: 500 } }] } });
  const before = emulator.accounts.getScenario(account.apiKey);
  expect(() => emulator.accounts.useBundledScenario(account.apiKey, 'credit-exhaustion')).toThrow(
    expect.objectContaining({ code: 'SCENARIO_INVALID' }),
  );
  expect(emulator.accounts.getScenario(account.apiKey)).toEqual(before);
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
