/** Test clocks in process: scenario-declared clocks and accounts, reset, and every timed part of an account running on its clock. */

import { afterEach, expect, test } from 'vitest';
import { createWebhookCatcher } from '../../src/index.js';
import type { Emulator } from '../../src/index.js';
import { basic, call, makeEmulator, origin } from '../support/api.js';
import { signRequest } from '../../src/index.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

function emulatorWith(options: Parameters<typeof makeEmulator>[0] = {}): Emulator {
  const emulator = makeEmulator(options);
  open.push(emulator);
  return emulator;
}

/** Sends as `apiKey` (its secret derived the default way) and answers the created message. */
async function sendAs(emulator: Emulator, apiKey: string, fields: Record<string, unknown>) {
  const secret = apiKey === 'pk_test_sms_emulator' ? 'sk_test_sms_emulator' : `sk_test_${apiKey.slice(3)}`;
  const response = await emulator.fetch(
    new Request(`${origin}/v1/messages`, {
      method: 'POST',
      headers: {
        authorization: basic(apiKey),
        'content-type': 'application/json',
        signature: signRequest(fields, secret),
      },
      body: JSON.stringify(fields),
    }),
  );
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; creation_date: string };
}

const scenario = {
  version: 1 as const,
  clocks: [{ id: 'clock_booking', name: 'booking', startTime: '2030-01-01T00:00:00Z' }],
  accounts: [{ apiKey: 'pk_booking', clock: 'clock_booking' }],
};

test('a scenario declares test clocks and accounts on them; reset restores them and removes the ones made at runtime', async () => {
  const emulator = emulatorWith({ scenario });
  expect(emulator.clocks.get('clock_booking')).toMatchObject({
    name: 'booking',
    now: Date.parse('2030-01-01T00:00:00Z'),
    accounts: ['pk_booking'],
  });
  expect(emulator.accounts.get('pk_booking').clock).toBe('clock_booking');
  const runtime = emulator.clocks.create();
  emulator.accounts.create({ apiKey: 'pk_runtime', clock: runtime.id });
  await emulator.clocks.advance('clock_booking', '1d');
  await sendAs(emulator, 'pk_booking', { recipient: ['27831234567'], message: 'Hi' });

  emulator.reset();
  expect(emulator.clocks.list().items.map((clock) => clock.id)).toEqual(['clock_booking']);
  expect(emulator.clocks.get('clock_booking')).toMatchObject({
    now: Date.parse('2030-01-01T00:00:00Z'),
    pendingTasks: 0,
    accounts: ['pk_booking'],
  });
  expect(() => emulator.accounts.get('pk_runtime')).toThrow(expect.objectContaining({ code: 'CONTROL_NOT_FOUND' }));
  expect(emulator.messages.list().total).toBe(0);
  // Ids drawn after a reset are the ones drawn after start-up: the same seed makes the same clocks.
  expect(emulator.clocks.create().id).toBe(runtime.id);
});

test('a scenario naming a clock that does not exist, or moving an account to another clock, is refused and changes nothing', () => {
  const emulator = emulatorWith({ scenario });
  expect(() =>
    emulator.scenario.set({ version: 1, accounts: [{ apiKey: 'pk_other', clock: 'clock_missing' }] }),
  ).toThrow(
    expect.objectContaining({
      code: 'SCENARIO_INVALID',
      message: expect.stringContaining('accounts[0].clock: no clock has the id "clock_missing"'),
    }),
  );
  expect(() =>
    emulator.scenario.set({
      version: 1,
      clocks: [{ id: 'clock_new' }],
      accounts: [{ apiKey: 'pk_booking', clock: 'clock_new' }],
    }),
  ).toThrow(
    expect.objectContaining({
      code: 'SCENARIO_INVALID',
      message: expect.stringContaining('cannot move to another clock'),
    }),
  );
  expect(() => emulator.scenario.set({ version: 1, clocks: [{ id: 'has space' }] })).toThrow(
    expect.objectContaining({ code: 'SCENARIO_INVALID' }),
  );
  expect(emulator.clocks.list().items.map((clock) => clock.id)).toEqual(['clock_booking']);
  expect(() => emulator.accounts.get('pk_other')).toThrow();
});

test("replies, their delays, timeline events, webhook tries and the journal run on the account's clock", async () => {
  const catcher = await createWebhookCatcher();
  open.push(catcher);
  const emulator = emulatorWith({
    scenario: {
      ...scenario,
      accounts: [{ apiKey: 'pk_booking', clock: 'clock_booking', webhookUrl: catcher.url }],
      replies: [{ match: { text: 'Confirm' }, after: '10m', text: 'YES' }],
      timeline: [{ at: '1h', addBalance: { account: 'pk_booking', credits: 5 } }],
    },
  });
  const balance = emulator.accounts.get('pk_booking').live.balance;
  const sent = await sendAs(emulator, 'pk_booking', { recipient: ['27831234567'], message: 'Confirm?' });
  expect(sent.creation_date).toBe('2030-01-01T02:00:00+02:00');
  // The main clock passing days does nothing to the account: no delivery, no reply, no timeline event.
  await emulator.clock.advance('2d');
  expect(emulator.messages.get(sent.id).status).toBe('pending');
  expect(emulator.replies.list().total).toBe(0);

  await emulator.clocks.advance('clock_booking', '5m');
  expect(emulator.messages.get(sent.id).status).toBe('delivered');
  expect(emulator.replies.list().total).toBe(0);
  await emulator.clocks.advance('clock_booking', '10m');
  const [reply] = emulator.replies.list().items;
  expect(reply?.creation_date.startsWith('2030-01-01T02:1')).toBe(true);
  const tries = emulator.webhooks
    .list({ account: 'pk_booking' })
    .items.flatMap((event) => event.attempts.map((attempt) => attempt.at));
  expect(tries.length).toBeGreaterThan(0);
  for (const at of tries) expect(at.startsWith('2030-01-01T02:')).toBe(true);
  expect(emulator.accounts.get('pk_booking').live.balance).toBe(balance - 1);
  await emulator.clocks.advance('clock_booking', '1h');
  expect(emulator.accounts.get('pk_booking').live.balance).toBe(balance + 4);

  const [entry] = emulator.requests.find({ account: 'pk_booking' }).items;
  expect(entry?.time.startsWith('2030-01-01T02:00')).toBe(true);
});

test('runUntilIdle on a test clock fires only its tasks; the main clock keeps its own queued', async () => {
  const emulator = emulatorWith({ scenario });
  const mainSent = await sendAs(emulator, 'pk_test_sms_emulator', { recipient: ['27831234567'], message: 'Main' });
  const clockSent = await sendAs(emulator, 'pk_booking', { recipient: ['27831234567'], message: 'Clock' });
  const pendingBefore = emulator.clock.state().pendingTasks;
  const run = await emulator.clocks.runUntilIdle('clock_booking');
  expect(run).toMatchObject({ pendingTasks: 0, run: { idle: true } });
  expect(emulator.messages.get(clockSent.id).status).toBe('delivered');
  expect(emulator.messages.get(mainSent.id).status).toBe('pending');
  expect(emulator.clock.state().pendingTasks).toBe(pendingBefore);
  // And the other way round: the main clock's run leaves the test clock's account alone.
  const later = await sendAs(emulator, 'pk_booking', { recipient: ['27831234567'], message: 'Later' });
  await emulator.clock.runUntilIdle();
  expect(emulator.messages.get(mainSent.id).status).toBe('delivered');
  expect(emulator.messages.get(later.id).status).toBe('pending');
});

test('the control API serves test clocks: create, list, move, refuse mode, delete, unknown ids 404 with catalogued codes', async () => {
  const emulator = emulatorWith();
  const created = await call(emulator, 'POST', '/_emulator/clocks', {
    raw: JSON.stringify({ name: 'http', startTime: '2030-01-01T00:00:00Z' }),
    key: false,
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const moved = await call(emulator, 'POST', `/_emulator/clocks/${id}`, {
    raw: JSON.stringify({ advance: '1h' }),
    key: false,
  });
  expect(moved.body).toMatchObject({ id, now: Date.parse('2030-01-01T01:00:00Z') });
  for (const [body, code] of [
    [{ mode: 'realtime' }, 'CONTROL_INVALID_REQUEST'],
    [{ speed: 2 }, 'CONTROL_INVALID_REQUEST'],
    [{ advance: -5 }, 'CONTROL_INVALID_REQUEST'],
    [{ advance: 'soon' }, 'CONTROL_INVALID_REQUEST'],
    [{ set: '2029-01-01T00:00:00Z' }, 'CLOCK_BACKWARDS'],
    [{ runUntilIdle: true, advance: '1m' }, 'CONTROL_INVALID_REQUEST'],
    [[1, 2], 'CONTROL_INVALID_REQUEST'],
  ] as const) {
    const refused = await call(emulator, 'POST', `/_emulator/clocks/${id}`, { raw: JSON.stringify(body), key: false });
    expect({ body, status: refused.status, code: refused.body.message }).toEqual({ body, status: 400, code });
  }
  for (const body of [
    '{"startTime": "10000-01-01T00:00:00Z"}',
    '{"name": 5}',
    '{"id": "clock_mine"}',
    '"text"',
    `{"name": "${'x'.repeat(201)}"}`,
  ]) {
    const refused = await call(emulator, 'POST', '/_emulator/clocks', { raw: body, key: false });
    expect({ body, status: refused.status, code: refused.body.message }).toEqual({
      body,
      status: 400,
      code: 'CONTROL_INVALID_REQUEST',
    });
  }
  expect((await call(emulator, 'GET', `/_emulator/clocks/${id}`, { key: false })).body.now).toBe(
    Date.parse('2030-01-01T01:00:00Z'),
  );
  expect((await call(emulator, 'GET', '/_emulator/clocks', { key: false })).body.total).toBe(1);
  for (const [method, path] of [
    ['GET', '/_emulator/clocks/clock_missing'],
    ['POST', '/_emulator/clocks/clock_missing'],
    ['DELETE', '/_emulator/clocks/clock_missing'],
  ] as const) {
    const missing = await call(emulator, method, path, method === 'POST' ? { raw: '{}', key: false } : { key: false });
    expect({ path, status: missing.status, code: missing.body.message }).toEqual({
      path,
      status: 404,
      code: 'CONTROL_NOT_FOUND',
    });
  }
  expect((await call(emulator, 'DELETE', `/_emulator/clocks/${id}`, { key: false })).status).toBe(204);
  expect((await call(emulator, 'GET', '/_emulator/clocks', { key: false })).body.total).toBe(0);
});
