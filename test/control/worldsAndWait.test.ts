/** One call per step over HTTP: a test's world (clock, account, scenario) in one call, and a wait for a status in one call. */

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { type Emulator, connect } from '../../src/index.js';
import { call, control, makeEmulator } from '../support/api.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const open: Emulator[] = [];
afterEach(async () => {
  for (const emulator of open.splice(0)) await emulator.close();
});

function emulator(): Emulator {
  const made = makeEmulator();
  open.push(made);
  return made;
}

async function sendAs(on: Emulator, apiKey: string, signingSecret: string, recipient = '27831234567') {
  const reply = await call(on, 'POST', '/v1/messages', {
    body: { recipient: [recipient], message: 'Hi' },
    key: apiKey,
    sign: signingSecret,
  });
  expect(reply.status).toBe(201);
  return reply.body as { id: string };
}

test('POST /worlds makes a test clock, an account on it and its own scenario in one call', async () => {
  const on = emulator();
  const made = await control(on, 'POST', '/worlds', {
    name: 'checkout test',
    startTime: '2030-01-01T09:00:00Z',
    account: { balance: 7, webhookUrl: 'http://127.0.0.1:9/hooks' },
    scenario: { rules: [{ match: { recipient: '27831234567' }, outcome: 'undelivered' }] },
  });

  expect(made.status).toBe(201);
  const { clock, account } = made.body;
  expect(clock).toMatchObject({ name: 'checkout test', time: '2030-01-01T11:00:00+02:00', accounts: [account.apiKey] });
  expect(account).toMatchObject({ clock: clock.id, live: { balance: 7, webhookUrl: 'http://127.0.0.1:9/hooks' } });
  expect(account.apiKey).toBe(`pk_test_${clock.id.slice('clock_'.length)}`);
  expect(on.accounts.getScenario(account.apiKey).rules).toHaveLength(1);
  // Deleting the clock deletes the world.
  await on.clocks.delete(clock.id);
  expect(() => on.accounts.get(account.apiKey)).toThrow(/No account/);
});

test('a world refused for its scenario, its account or its clock leaves nothing behind, not even a drawn id', async () => {
  const on = emulator();
  const before = JSON.stringify(on.snapshot());
  const refusals = [
    [{ scenario: { rules: [{ outcome: 'exploded' }] } }, 400, 'SCENARIO_INVALID'],
    [{ account: { apiKey: 'pk_test_sms_emulator' } }, 409, 'CONTROL_CONFLICT'],
    [{ account: { apiKey: 'not a key' } }, 400, 'CONTROL_INVALID_REQUEST'],
    [{ startTime: 'yesterday' }, 400, 'CONTROL_INVALID_REQUEST'],
    [{ account: { clock: 'clock_elsewhere' } }, 400, 'CONTROL_INVALID_REQUEST'],
  ] as const;
  for (const [body, status, code] of refusals) {
    const refused = await control(on, 'POST', '/worlds', body);
    expect([refused.status, refused.body.message], JSON.stringify(body)).toEqual([status, code]);
  }
  expect(JSON.stringify(on.snapshot())).toBe(before);
});

test('the same seed makes the same worlds, through the library and over HTTP with connect()', async () => {
  const local = emulator();
  const viaLibrary = local.worlds.create({ name: 'a' });
  const served = emulator();
  const { origin } = await served.listen({ host: '127.0.0.1', port: 0 });
  const viaHttp = await connect(origin).worlds.create({ name: 'a' });
  expect(viaHttp.clock.id).toBe(viaLibrary.clock.id);
  expect(viaHttp.account.apiKey).toBe(viaLibrary.account.apiKey);
});

test('POST /messages/{id}/wait moves only the message clock until it is delivered, and answers where that clock stands', async () => {
  const on = emulator();
  const world = on.worlds.create({});
  const other = on.worlds.create({});
  const sent = await sendAs(on, world.account.apiKey, world.account.signingSecret);

  const waited = await control(on, 'POST', `/messages/${sent.id}/wait`, { status: 'delivered', within: '5m' });

  expect(waited.status).toBe(200);
  expect(waited.body.message).toMatchObject({ id: sent.id, status: 'delivered' });
  expect(waited.body.clock).toEqual({
    id: world.clock.id,
    now: on.clocks.get(world.clock.id).now,
    time: on.clocks.get(world.clock.id).time,
  });
  expect(waited.body.clock.now).toBeGreaterThan(world.clock.now);
  expect(on.clocks.get(other.clock.id).now).toBe(other.clock.now);
});

test('a wait that cannot be met is CONTROL_WAIT_FAILED with the history; bad input and unknown ids are refused', async () => {
  const on = emulator();
  const world = on.worlds.create({});
  const sent = await sendAs(on, world.account.apiKey, world.account.signingSecret, '27830000002'); // ends undelivered

  const failed = await control(on, 'POST', `/messages/${sent.id}/wait`, { status: 'delivered' });
  expect(failed.status).toBe(409);
  expect(failed.body.message).toBe('CONTROL_WAIT_FAILED');
  expect(failed.body.description).toMatch(/did not reach "delivered": it ended "undelivered"\.\nhistory: pending at/);
  const tooSoon = await sendAs(on, world.account.apiKey, world.account.signingSecret);
  const short = await control(on, 'POST', `/messages/${tooSoon.id}/wait`, { status: 'delivered', within: '500ms' });
  expect([short.status, short.body.description]).toEqual([409, expect.stringMatching(/is "pending" after 500ms/)]);
  expect((await control(on, 'POST', '/messages/nope/wait', { status: 'delivered' })).status).toBe(404);
  expect((await control(on, 'POST', `/messages/${sent.id}/wait`, { status: 'arrived' })).status).toBe(400);
  expect((await control(on, 'POST', `/messages/${sent.id}/wait`, { status: 'delivered', within: 'soon' })).status).toBe(
    400,
  );
});

test("connect()'s waitFor is one control call, and fails with the in-process wait's words", async () => {
  const on = emulator();
  const { origin } = await on.listen({ host: '127.0.0.1', port: 0 });
  const paths: string[] = [];
  const remote = connect(origin, {
    fetch: (request) => {
      paths.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(request);
    },
  });
  const world = await remote.worlds.create({});
  const sent = await sendAs(on, world.account.apiKey, world.account.signingSecret);
  paths.length = 0;

  const message = await remote.waitFor(sent.id).toReach('delivered');

  expect(message.status).toBe('delivered');
  expect(paths).toEqual([`POST /_emulator/messages/${sent.id}/wait`]);
  const doomed = await sendAs(on, world.account.apiKey, world.account.signingSecret, '27830000002');
  await expect(remote.waitFor(doomed.id).toReach('delivered')).rejects.toThrow(
    /^sms-emulator: message \S+ did not reach "delivered": it ended "undelivered"/,
  );
});

test('the CLI makes a world and waits for a message: worlds create, messages wait', async () => {
  const on = emulator();
  const { origin } = await on.listen({ host: '127.0.0.1', port: 0 });
  const cli = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [bin, ...args, '--url', origin], { timeout: 15_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
  const made = await cli(['worlds', 'create', '--name', 'from a shell']);
  expect(made.stderr).toBe('');
  const world = JSON.parse(made.stdout);
  const sent = await sendAs(on, world.account.apiKey, world.account.signingSecret);
  const waited = await cli(['messages', 'wait', sent.id, '--status', 'delivered', '--within', '5m']);
  expect(waited.stderr).toBe('');
  expect(JSON.parse(waited.stdout).message.status).toBe('delivered');
});
