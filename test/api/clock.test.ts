/** The clock over the control API: run until idle, next, the documented range, and tasks that fail. */

import { afterEach, expect, test } from 'vitest';
import { createEmulator, createWebhookCatcher, type Emulator } from '../../src/index.js';
import { control, makeEmulator, send, startTime } from '../support/api.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

test('runUntilIdle delivers every message and answers after the webhooks it caused were tried', async () => {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator({ webhookUrl: catcher.url });
  open.push(catcher, emulator);
  const message = await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  const answer = await control(emulator, 'POST', '/clock', { runUntilIdle: true });
  expect(answer.status).toBe(200);
  expect(answer.body.run).toEqual({ fired: expect.any(Number), idle: true });
  expect(answer.body.pendingTasks).toBe(0);
  expect(emulator.messages.get(message.id).status).toBe('delivered');
  expect(catcher.received.map((request) => request.body.status)).toEqual(['submitted', 'delivered']);
});

test('runUntilIdle with a limit stops there when work is still queued', async () => {
  const emulator = makeEmulator();
  await send(emulator, { recipient: ['27831234567'], message: 'Later', schedule: '2026-11-23T12:00:00+02:00' });
  const answer = await control(emulator, 'POST', '/clock', { runUntilIdle: true, limit: '1h' });
  expect(answer.body).toMatchObject({
    time: '2026-11-21T13:00:00+02:00',
    run: { fired: 0, idle: false, stoppedAt: 'limit' },
  });
  const library = await emulator.clock.runUntilIdle({ limit: '30d' });
  expect(library.run).toMatchObject({ idle: true });
});

test('next jumps to the next queued event and fires it', async () => {
  const emulator = makeEmulator();
  const message = await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  const first = await control(emulator, 'POST', '/clock', { next: true });
  expect(first.body.run.fired).toBeGreaterThan(0);
  expect(first.body.now).toBeGreaterThan(Date.parse(startTime));
  expect(emulator.messages.get(message.id).status).not.toBe('pending');
  const rest = await emulator.clock.next();
  expect(rest.now).toBeGreaterThanOrEqual(first.body.now);
  const idle = await control(emulator, 'POST', '/clock', { next: true });
  expect(idle.body.run).toEqual({ fired: 0, idle: true });
});

test.each([
  [{ advance: 1e300 }],
  [{ advance: '99999999999999999999d' }],
  [{ advance: '8000y' }],
  [{ speed: 1e308 }],
  [{ speed: 0 }],
  [{ set: '+010000-01-01T00:00:00Z' }],
  [{ set: '1969-12-31T23:59:59Z' }],
  [{ runUntilIdle: true, limit: 1e300 }],
  [{ runUntilIdle: true, next: true }],
  [{ next: true, advance: '1s' }],
  [{ limit: '1h' }],
  [{ runUntilIdle: false }],
])('clock command %j is refused with CONTROL_INVALID_REQUEST and changes nothing', async (command) => {
  const emulator = makeEmulator();
  const answer = await control(emulator, 'POST', '/clock', command);
  expect(answer).toMatchObject({ status: 400, body: { message: 'CONTROL_INVALID_REQUEST' } });
  expect((await control(emulator, 'GET', '/clock')).body).toMatchObject({
    time: '2026-11-21T12:00:00+02:00',
    speed: 1,
  });
});

test.each([
  [{ speed: 5, set: '2020-01-01T00:00:00Z' }, 'CLOCK_BACKWARDS'],
  [{ mode: 'realtime', set: '2026-11-21T09:00:00Z' }, 'CLOCK_BACKWARDS'],
  [{ speed: 5, set: '9999-12-30T00:00:00Z', advance: '2d' }, 'CONTROL_INVALID_REQUEST'],
])('a combined clock command %j refused by a later part applies no earlier part', async (command, code) => {
  const emulator = makeEmulator();
  await send(emulator, { recipient: ['27831234567'], message: 'due in 5 seconds' });
  expect((await control(emulator, 'POST', '/clock', command)).body.message).toBe(code);
  expect((await control(emulator, 'GET', '/clock')).body).toMatchObject({
    time: '2026-11-21T12:00:00+02:00',
    mode: 'manual',
    speed: 1,
    pendingTasks: 1,
  });
  expect(emulator.messages.list().items[0]?.status).toBe('pending');
});

test('an advance that would pass the end of the range is refused; one that reaches it is fine', async () => {
  const emulator = makeEmulator();
  await control(emulator, 'POST', '/clock', { set: '9999-12-30T00:00:00Z' });
  expect((await control(emulator, 'POST', '/clock', { advance: '2d' })).body.message).toBe('CONTROL_INVALID_REQUEST');
  expect((await control(emulator, 'POST', '/clock', { advance: '1d' })).body.time).toBe('9999-12-31T02:00:00+02:00');
  expect((await control(emulator, 'POST', '/clock', { set: '9999-12-31T00:00:00.001Z' })).body.message).toBe(
    'CONTROL_INVALID_REQUEST',
  );
});

test.each([
  [{ speed: 1e308 }],
  [{ speed: 0 }],
  [{ startTime: '+010000-01-01T00:00:00Z' }],
  [{ startTime: '1960-01-01T00:00:00Z' }],
])('the option %j is refused at start', (options) => {
  expect(() => createEmulator(options)).toThrow(/invalid options/);
});

test('a scenario timeline event naming an unknown account is refused at load with SCENARIO_INVALID naming it', async () => {
  const scenario = { version: 1, timeline: [{ at: '1m', setBalance: { account: 'pk_nobody', balance: 5 } }] };
  expect(() => makeEmulator({ scenario })).toThrow(
    /timeline\[0\]\.setBalance\.account: no account has the API key "pk_nobody"/,
  );
  const emulator = makeEmulator();
  const refused = await control(emulator, 'PUT', '/scenario', scenario);
  expect(refused).toMatchObject({
    status: 400,
    body: { message: 'SCENARIO_INVALID', description: expect.stringContaining('pk_nobody') },
  });
  await control(emulator, 'POST', '/accounts', { apiKey: 'pk_nobody' });
  expect((await control(emulator, 'PUT', '/scenario', scenario)).status).toBe(200);
  const own = {
    version: 1,
    accounts: [{ apiKey: 'pk_own' }],
    timeline: [{ at: '1m', addBalance: { account: 'pk_own', credits: 5 } }],
  };
  expect(() => makeEmulator({ scenario: own })).not.toThrow();
});

test('a scenario timeline event starting or stopping a fault no fault is named is refused at load with SCENARIO_INVALID naming it', async () => {
  const faults = [{ name: 'outage', match: { operation: 'send' as const }, error: { status: 503 } }];
  const typo = {
    version: 1,
    faults,
    timeline: [
      { at: '1m', startFault: 'outage' },
      { at: '2m', stopFault: 'outgae' },
    ],
  };
  expect(() => makeEmulator({ scenario: typo })).toThrow(/timeline\[1\]\.stopFault: no fault is named "outgae"/);
  const emulator = makeEmulator();
  const refused = await control(emulator, 'PUT', '/scenario', typo);
  expect(refused).toMatchObject({
    status: 400,
    body: { message: 'SCENARIO_INVALID', description: expect.stringContaining('outgae') },
  });
  expect(() => makeEmulator({ scenario: { ...typo, timeline: [{ at: '1m', startFault: 'outage' }] } })).not.toThrow();
});

test('a timeline event whose account was deleted is skipped with a logged reason and the clock goes on', async () => {
  const scenario = {
    version: 1,
    accounts: [{ apiKey: 'pk_gone' }],
    timeline: [
      { at: '1m', setBalance: { account: 'pk_gone', balance: 5 } },
      { at: '2m', setBalance: { balance: 7 } },
    ],
  };
  const emulator: Emulator = makeEmulator({ scenario });
  const heard: string[] = [];
  emulator.on('clock.incident', ({ incident }) => heard.push(incident.outcome));
  expect((await control(emulator, 'DELETE', '/accounts/pk_gone')).status).toBe(204);
  const moved = await control(emulator, 'POST', '/clock', { advance: '5m' });
  expect(moved.status).toBe(200);
  expect(moved.body.time).toBe('2026-11-21T12:05:00+02:00');
  expect(moved.body.incidents).toEqual([
    {
      time: '2026-11-21T12:01:00+02:00',
      task: 'scenario timeline event at 1m (setBalance)',
      outcome: 'skipped',
      reason: 'no account has the API key "pk_gone" (deleted?)',
    },
  ]);
  expect(heard).toEqual(['skipped']);
  expect(emulator.accounts.get('pk_test_sms_emulator').live.balance).toBe(7);
  await control(emulator, 'POST', '/reset');
  expect((await control(emulator, 'GET', '/clock')).body.incidents).toEqual([]);
});
