/** Per-account scenarios: consulted before the emulator's for one account only, gone on delete and reset, kept by snapshots. */

import { expect, test } from 'vitest';
import { apiKey, balance, call, control, makeEmulator, send } from '../support/api.js';
import type { Emulator } from '../../src/index.js';

const other = 'pk_test_other';
const otherSecret = 'sk_test_other';
const legStatuses = (emulator: Emulator, id: string) => emulator.messages.get(id).legs.map((leg) => leg.status);

function withOtherAccount(): Emulator {
  const emulator = makeEmulator();
  emulator.accounts.create({ apiKey: other, signingSecret: otherSecret });
  return emulator;
}

test("an account's own rule decides its legs before the emulator's rules, and no other account's", async () => {
  const emulator = withOtherAccount();
  emulator.accounts.setScenario(other, { rules: [{ match: { recipient: '2783*' }, outcome: 'undelivered' }] });
  // 27830000004 is a magic number (blist) in the emulator's scenario: the account's own rule comes first.
  const mine = await send(
    emulator,
    { recipient: ['27831234567', '27830000004'], message: 'Hi' },
    'live',
    other,
    otherSecret,
  );
  const theirs = await send(emulator, { recipient: ['27831234567', '27830000004'], message: 'Hi' });
  await emulator.clock.advance('5s');
  expect(legStatuses(emulator, mine.id)).toEqual(['undelivered', 'undelivered']);
  expect(legStatuses(emulator, theirs.id)).toEqual(['delivered', 'blist']);
});

test("an account's legs no rule of its own matches fall through to the emulator's scenario", async () => {
  const emulator = withOtherAccount();
  emulator.accounts.setScenario(other, { rules: [{ match: { recipient: '27831111111' }, outcome: 'noroute' }] });
  const sent = await send(
    emulator,
    { recipient: ['27831111111', '27830000002', '27832222222'], message: 'Hi' },
    'live',
    other,
    otherSecret,
  );
  await emulator.clock.advance('5s');
  expect(legStatuses(emulator, sent.id)).toEqual(['noroute', 'undelivered', 'delivered']);
});

test("an account's own reply is scripted for its messages only", async () => {
  const emulator = withOtherAccount();
  emulator.accounts.setScenario(other, { replies: [{ after: '1m', text: 'Yes' }] });
  const mine = await send(emulator, { recipient: ['27831234567'], message: 'Coming?' }, 'live', other, otherSecret);
  await send(emulator, { recipient: ['27831234567'], message: 'Coming?' });
  await emulator.clock.advance('5s');
  expect(emulator.replies.list().items).toEqual([]);
  await emulator.clock.advance('1m');
  expect(emulator.replies.list().items).toEqual([expect.objectContaining({ message: 'Yes', in_reply_to: mine.id })]);
});

test("an account's own fault acts on its requests only, with count", async () => {
  const emulator = withOtherAccount();
  emulator.accounts.setScenario(other, {
    faults: [{ match: { operation: 'balance' }, error: { status: 503 }, count: 1 }],
  });
  expect((await call(emulator, 'GET', '/v1/messages/balance')).status).toBe(200);
  expect((await call(emulator, 'GET', '/v1/messages/balance', { key: other })).status).toBe(503);
  expect((await call(emulator, 'GET', '/v1/messages/balance', { key: other })).status).toBe(200);
});

test('the emulator-wide scenario.set keeps its meaning beside an account scenario', async () => {
  const emulator = withOtherAccount();
  emulator.accounts.setScenario(other, { rules: [{ match: { recipient: '27831111111' }, outcome: 'noroute' }] });
  emulator.scenario.set({ version: 1, rules: [{ outcome: 'failed' }] });
  const mine = await send(
    emulator,
    { recipient: ['27831111111', '27832222222'], message: 'Hi' },
    'live',
    other,
    otherSecret,
  );
  const theirs = await send(emulator, { recipient: ['27831111111'], message: 'Hi' });
  await emulator.clock.advance('5s');
  expect(legStatuses(emulator, mine.id)).toEqual(['noroute', 'failed']);
  expect(legStatuses(emulator, theirs.id)).toEqual(['failed']);
});

test('PUT, GET and DELETE /_emulator/accounts/{key}/scenario set, read and clear it; YAML is accepted', async () => {
  const emulator = withOtherAccount();
  const empty = await control(emulator, 'GET', `/accounts/${other}/scenario`);
  expect(empty).toMatchObject({ status: 200, body: { rules: [], replies: [], faults: [], webhooks: [] } });
  const yaml = 'rules:\n  - { match: { recipient: "27831234567" }, outcome: expired }\n';
  const put = await call(emulator, 'PUT', `/_emulator/accounts/${other}/scenario`, {
    raw: yaml,
    key: false,
    contentType: 'application/yaml',
  });
  expect(put.status).toBe(200);
  expect(put.body.rules).toEqual([{ match: { recipient: '27831234567' }, outcome: 'expired' }]);
  expect((await control(emulator, 'GET', `/accounts/${other}/scenario`)).body).toEqual(put.body);
  expect(emulator.accounts.getScenario(other)).toEqual(put.body);
  expect((await control(emulator, 'DELETE', `/accounts/${other}/scenario`)).status).toBe(204);
  expect(emulator.accounts.getScenario(other)).toEqual({ rules: [], replies: [], faults: [], webhooks: [] });
});

test('a bad account scenario is refused with SCENARIO_INVALID naming the place, and changes nothing', async () => {
  const emulator = withOtherAccount();
  emulator.accounts.setScenario(other, { rules: [{ outcome: 'failed' }] });
  const before = emulator.accounts.getScenario(other);
  for (const raw of [
    '{"rules": [{"outcome": "lost"}]}',
    '{"timeline": [{"at": "1m", "startFault": "x"}]}',
    '{"accounts": []}',
    '[1, 2]',
    'rules: [',
    '{"faults": [{"match": {}}]}',
  ]) {
    const reply = await call(emulator, 'PUT', `/_emulator/accounts/${other}/scenario`, { raw, key: false });
    expect(reply.status, raw).toBe(400);
    expect(reply.body.message, raw).toBe('SCENARIO_INVALID');
    expect(reply.body.description, raw).toMatch(/^scenario of pk_test_other/);
  }
  expect(emulator.accounts.getScenario(other)).toEqual(before);
  const unknown = await call(emulator, 'PUT', '/_emulator/accounts/pk_nobody/scenario', { raw: '{}', key: false });
  expect(unknown).toMatchObject({ status: 404, body: { message: 'CONTROL_NOT_FOUND' } });
  expect((await control(emulator, 'DELETE', '/accounts/pk_nobody/scenario')).status).toBe(404);
});

test('an account scenario is gone when the account is deleted and made again, or reset', async () => {
  const emulator = withOtherAccount();
  emulator.accounts.setScenario(other, { rules: [{ outcome: 'failed' }] });
  emulator.accounts.delete(other);
  emulator.accounts.create({ apiKey: other, signingSecret: otherSecret });
  expect(emulator.accounts.getScenario(other).rules).toEqual([]);
  emulator.accounts.setScenario(other, { rules: [{ outcome: 'failed' }] });
  emulator.reset({ account: other });
  expect(emulator.accounts.getScenario(other).rules).toEqual([]);
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'Hi' }, 'live', other, otherSecret);
  await emulator.clock.advance('5s');
  expect(legStatuses(emulator, sent.id)).toEqual(['delivered']);
});

test("a scenario file's account entry carries its own scenario: the start state, which reset returns to", async () => {
  const emulator = makeEmulator({
    scenario: {
      version: 1,
      accounts: [{ apiKey: other, signingSecret: otherSecret, scenario: { rules: [{ outcome: 'undelivered' }] } }],
    },
  });
  const check = async () => {
    const sent = await send(emulator, { recipient: ['27831234567'], message: 'Hi' }, 'live', other, otherSecret);
    await emulator.clock.advance('5s');
    expect(legStatuses(emulator, sent.id)).toEqual(['undelivered']);
  };
  await check();
  emulator.accounts.setScenario(other, { rules: [{ outcome: 'failed' }] });
  emulator.reset({ account: other });
  await check();
  emulator.accounts.clearScenario(other);
  emulator.reset();
  await check();
  // The default account has none of its own.
  expect(emulator.accounts.getScenario(apiKey).rules).toEqual([]);
});

test('a snapshot keeps account scenarios, fault counts start afresh on import, and a bad one is refused whole', async () => {
  const emulator = withOtherAccount();
  emulator.accounts.setScenario(other, {
    faults: [{ match: { operation: 'balance' }, error: { status: 503 }, count: 1 }],
  });
  const snapshot = emulator.snapshot();
  expect((await call(emulator, 'GET', '/v1/messages/balance', { key: other })).status).toBe(503);
  emulator.restore(snapshot);
  expect(emulator.accounts.getScenario(other).faults).toHaveLength(1);
  expect((await call(emulator, 'GET', '/v1/messages/balance', { key: other })).status).toBe(503);
  expect(await balance(emulator, 'live', other)).toBe(1000);

  const broken = structuredClone(snapshot) as { accounts: { scenario?: unknown }[] };
  (broken.accounts[1] as { scenario?: unknown }).scenario = { rules: [{ outcome: 'lost' }] };
  emulator.accounts.clearScenario(other);
  const refused = await control(emulator, 'PUT', '/snapshot', broken);
  expect(refused.status).toBe(400);
  expect(refused.body.description).toMatch(/accounts\[1\]\.scenario.*rules\[0\]\.outcome/);
  expect(emulator.accounts.getScenario(other).faults).toEqual([]);
});
