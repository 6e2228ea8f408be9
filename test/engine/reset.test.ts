import { expect, test } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { createRandom } from '../../src/state/random.js';
import { apiKey, balance, call, makeEmulator, send } from '../support/api.js';

const startHook = 'http://127.0.0.1:9/start';
const startupScenario = {
  version: 1,
  accounts: [{ apiKey: 'pk_startup', balance: 40, optOuts: ['27839999999'] }],
  rules: [{ match: { recipient: '27830000001' }, outcome: 'undelivered' }],
};

const startEmulator = () => makeEmulator({ scenario: startupScenario, webhookUrl: startHook });

const control = (emulator: Emulator, method: string, path: string, body?: unknown) =>
  call(emulator, method, `/_emulator${path}`, {
    raw: body === undefined ? undefined : JSON.stringify(body),
    key: false,
  });

async function outcomeOf(emulator: Emulator, recipient: string, key = apiKey): Promise<string> {
  const secret = emulator.accounts.get(key).signingSecret;
  const message = await send(emulator, { recipient: [recipient], message: 'outcome?' }, 'live', key, secret);
  await emulator.clock.advance('1m');
  return emulator.messages.get(message.id).status;
}

/**
 * Each case first checks that it sees the start-up state, then changes the part of it that it is
 * about, so any case run after it proves that reset undid the change.
 */
const cases: Record<string, (emulator: Emulator) => Promise<void>> = {
  async scenario(emulator) {
    expect(await outcomeOf(emulator, '27830000001')).toBe('undelivered');
    expect(await outcomeOf(emulator, '27830000002')).toBe('undelivered');
    expect(await outcomeOf(emulator, '27831111112')).toBe('delivered');
    emulator.scenario.set({
      version: 1,
      magicNumbers: false,
      rules: [{ match: { recipient: '27831111112' }, outcome: 'failed' }],
    });
    expect(await outcomeOf(emulator, '27831111112')).toBe('failed');
    expect(await outcomeOf(emulator, '27830000002')).toBe('delivered');
  },
  async webhookUrl(emulator) {
    expect(emulator.accounts.get(apiKey).live.webhookUrl).toBe(startHook);
    expect(emulator.accounts.list().items.map((account) => account.apiKey)).toEqual([apiKey, 'pk_startup']);
    emulator.accounts.update(apiKey, {
      live: { webhookUrl: 'http://127.0.0.1:9/changed' },
      sandbox: { webhookUrl: null },
    });
    emulator.accounts.create({ apiKey: 'pk_runtime', webhookUrl: 'http://127.0.0.1:9/runtime' });
  },
  async balances(emulator) {
    expect(await balance(emulator)).toBe(1000);
    expect(await balance(emulator, 'live', 'pk_startup')).toBe(40);
    await send(emulator, { recipient: ['27830000003'], message: 'costs one' });
    emulator.accounts.update('pk_startup', { live: { balance: 3 }, sandbox: { addBalance: 7 } });
    expect(await balance(emulator, 'live', 'pk_startup')).toBe(3);
  },
  async optOuts(emulator) {
    expect(emulator.optOuts.list({ account: 'pk_startup' }).items).toEqual(['27839999999']);
    expect(emulator.optOuts.list().items).toEqual([]);
    emulator.optOuts.add('27830000004');
    emulator.optOuts.remove('27839999999', { account: 'pk_startup' });
    expect(await outcomeOf(emulator, '27830000004')).toBe('blist');
  },
  async clockIdsAndChaos(emulator) {
    expect(emulator.clock.state()).toMatchObject({
      time: '2026-11-21T12:00:00+02:00',
      mode: 'manual',
      speed: 1,
      pendingTasks: 0,
    });
    expect(emulator.webhooks.chaos()).toMatchObject({ duplicateRate: 0, delayRate: 0, reorderRate: 0 });
    expect(emulator.webhooks.list().items).toEqual([]);
    const first = await send(emulator, { recipient: ['27830000005'], message: 'first id' });
    expect(first.id).toBe(createRandom('test-seed').fork('ids').uuid());
    emulator.webhooks.setChaos({ duplicateRate: 1 });
    await emulator.clock.configure({ mode: 'manual', speed: 3 });
    await send(emulator, {
      schedule: '2026-11-22T12:00',
      recipient: ['27830000005'],
      message: 'scheduled, still pending at reset',
    });
  },
};

const names = Object.keys(cases);
/** A fixed-seed shuffle, so the third order is arbitrary yet the same on every run. */
const shuffled = (() => {
  const random = createRandom('reset-suite');
  const order = [...names];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  return order;
})();

test.each([
  ['in declaration order, reset by the library', names, 'library'],
  ['in reverse order, reset over HTTP', [...names].reverse(), 'http'],
  ['in a shuffled order, reset by the library', shuffled, 'library'],
])('cases that change the scenario, webhook URL, balances and opt-outs pass %s', async (_order, order, via) => {
  const emulator = startEmulator();
  for (const name of order as string[]) {
    await (cases[name] as (emulator: Emulator) => Promise<void>)(emulator);
    if (via === 'http') expect((await control(emulator, 'POST', '/reset')).status).toBe(200);
    else emulator.reset();
  }
  for (const name of order as string[]) {
    await (cases[name] as (emulator: Emulator) => Promise<void>)(emulator);
    emulator.reset();
  }
  await emulator.close();
});

test('reset undoes a scenario set at runtime over HTTP and brings back the start-up one', async () => {
  const emulator = makeEmulator();
  expect(await outcomeOf(emulator, '27830000002')).toBe('undelivered');
  const put = await call(emulator, 'PUT', '/_emulator/scenario', {
    raw: 'version: 1\nmagicNumbers: false\n',
    key: false,
    contentType: 'application/yaml',
  });
  expect(put.status).toBe(200);
  expect(await outcomeOf(emulator, '27830000002')).toBe('delivered');
  await control(emulator, 'POST', '/reset');
  expect(emulator.scenario.get().rules).toHaveLength(9);
  expect(await outcomeOf(emulator, '27830000002')).toBe('undelivered');
});

test('a scenario set at runtime does not change what reset restores for its accounts', () => {
  const emulator = startEmulator();
  emulator.scenario.set({ version: 1, accounts: [{ apiKey: 'pk_startup', balance: 5 }, { apiKey: 'pk_scenario' }] });
  expect(emulator.accounts.get('pk_startup').live.balance).toBe(5);
  emulator.reset();
  expect(emulator.accounts.get('pk_startup').live.balance).toBe(40);
  expect(emulator.accounts.list().items.map((account) => account.apiKey)).toEqual([apiKey, 'pk_startup']);
});

test('a per-account reset restores that account only: its start-up settings, no messages', async () => {
  const emulator = startEmulator();
  await send(emulator, { recipient: ['27830000003'], message: 'mine' });
  emulator.accounts.update(apiKey, { live: { webhookUrl: null, balance: 2 } });
  emulator.optOuts.add('27830000004');
  emulator.accounts.update('pk_startup', { live: { balance: 1 } });
  emulator.reset({ account: apiKey });
  expect(emulator.accounts.get(apiKey)).toMatchObject({
    live: { balance: 1000, webhookUrl: startHook, optOuts: [], messages: 0 },
  });
  expect(emulator.accounts.get('pk_startup').live.balance).toBe(1);
});

test('a per-account reset of an account created at runtime returns it to the settings it was created with', async () => {
  const emulator = startEmulator();
  emulator.accounts.create({ apiKey: 'pk_team', signingSecret: 'team-secret', balance: 50 });
  await send(emulator, { recipient: ['27830000003'], message: 'team' }, 'live', 'pk_team', 'team-secret');
  emulator.accounts.update('pk_team', { live: { balance: 9, webhookUrl: 'http://127.0.0.1:9/team' } });
  expect((await control(emulator, 'POST', '/reset', { account: 'pk_team' })).status).toBe(200);
  expect(emulator.accounts.get('pk_team')).toMatchObject({
    signingSecret: 'team-secret',
    live: { balance: 50, webhookUrl: null, messages: 0 },
  });
  expect((await control(emulator, 'POST', '/reset', { account: 'pk_nobody' })).status).toBe(404);
});

test('a scheduled message pending at reset never fires afterwards', async () => {
  const emulator = startEmulator();
  await send(emulator, { schedule: '2026-11-21T13:00', recipient: ['27830000003'], message: 'later' });
  emulator.reset();
  await emulator.clock.advance('2h');
  expect(emulator.messages.list().items).toEqual([]);
  expect(await balance(emulator)).toBe(1000);
});

test('snapshot import clears with the same routine: chaos, webhook log and random streams it does not carry go back to the start', async () => {
  const emulator = startEmulator();
  const start = emulator.snapshot();
  const first = await send(emulator, { recipient: ['27830000003'], message: 'one' });
  emulator.webhooks.setChaos({ delayRate: 1 });
  await emulator.clock.advance('1m');
  expect(emulator.webhooks.list().items.length).toBeGreaterThan(0);
  emulator.restore({ ...start, random: {} });
  expect(emulator.webhooks.chaos().delayRate).toBe(0);
  expect(emulator.webhooks.list().items).toEqual([]);
  expect((await send(emulator, { recipient: ['27830000003'], message: 'one' })).id).toBe(first.id);
});
