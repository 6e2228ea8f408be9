/** Each bundled scenario behaves as its documentation says; plus opt-outs, the outcome header and runtime loading. */

import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { apiKey, balance, call, makeEmulator, scheduleIn, send } from '../support/api.js';
import type { Emulator, EmulatorOptions } from '../../src/index.js';

const bundled = (name: string) => fileURLToPath(new URL(`../../scenarios/${name}.yaml`, import.meta.url));
const withScenario = (name: string, options: EmulatorOptions = {}) =>
  makeEmulator({ scenario: bundled(name), ...options });
const legStatuses = (emulator: Emulator, id: string) => emulator.messages.get(id).legs.map((leg) => leg.status);

test('default: each magic number reaches its documented outcome', async () => {
  const emulator = makeEmulator();
  const numbers = [
    '27830000001',
    '27830000002',
    '27830000003',
    '27830000004',
    '27830000005',
    '27830000006',
    '27831234567',
  ];
  const message = await send(emulator, { recipient: numbers, message: 'magic' });
  await emulator.clock.advance('5s');
  expect(legStatuses(emulator, message.id)).toEqual([
    'delivered',
    'undelivered',
    'submitted',
    'blist',
    'noroute',
    'submitted',
    'delivered',
  ]);
  await emulator.clock.advance('10m');
  expect(legStatuses(emulator, message.id)[5]).toBe('delivered');
  await emulator.clock.advance('48h');
  expect(legStatuses(emulator, message.id)[2]).toBe('expired');
});

test('default: 27830000007 is delivered and replies 30 s later', async () => {
  const emulator = makeEmulator();
  const message = await send(emulator, { recipient: ['27830000007'], message: 'Hello', client_reference: 'r-7' });
  await emulator.clock.advance('5s');
  expect(emulator.replies.list().items).toEqual([]);
  await emulator.clock.advance('30s');
  expect(emulator.replies.list().items).toEqual([
    expect.objectContaining({
      message: 'Thanks, got it!',
      recipient: ['27830000007'],
      client_reference: 'r-7',
      in_reply_to: message.id,
    }),
  ]);
});

test('default: 27830000008 replies STOP, which opts it out: the next message to it ends blist', async () => {
  const emulator = makeEmulator();
  await send(emulator, { recipient: ['27830000008'], message: 'Promo 1' });
  await emulator.clock.advance('1m');
  expect(emulator.optOuts.list().items).toEqual(['27830000008']);
  const next = await send(emulator, { recipient: ['27830000008', '27830000001'], message: 'Promo 2' });
  await emulator.clock.advance('5s');
  expect(legStatuses(emulator, next.id)).toEqual(['blist', 'delivered']);
});

test('opt-outs: START opts back in; STOP in any case with spaces opts out; the list is editable', async () => {
  const emulator = withScenario('opt-outs');
  const first = await send(emulator, { recipient: ['27835550000', '27836660001'], message: 'Hi' });
  await emulator.clock.advance('5s');
  expect(legStatuses(emulator, first.id)).toEqual(['blist', 'delivered']);
  await emulator.clock.advance('10s');
  expect(emulator.optOuts.list().items).toEqual(['27835550000', '27836660001']);
  await emulator.replies.inject(first.id, { from: '27836660001', text: '  start ' });
  expect(emulator.optOuts.list().items).toEqual(['27835550000']);
  const control = (method: string, path: string) =>
    call(emulator, method, `/_emulator/opt-outs${path}`, { key: false });
  expect((await control('DELETE', '/27835550000')).body).toEqual({
    account: apiKey,
    environment: 'live',
    number: '27835550000',
    optedOut: false,
  });
  expect(emulator.optOuts.list().items).toEqual([]);
  // The scenario's optOuts apply to both environments; the sandbox list is its own from then on.
  expect((await control('PUT', '/27831234567?environment=sandbox')).body).toMatchObject({
    environment: 'sandbox',
    optedOut: true,
  });
  expect((await control('GET', '?environment=sandbox')).body).toEqual({
    items: ['27835550000', '27831234567'],
    total: 2,
    page: 1,
    limit: 100,
  });
  expect((await control('PUT', '/12345')).status).toBe(400);
  await emulator.replies.inject(first.id, { from: '27836660001', text: ' Stop ' });
  expect(emulator.optOuts.list().items).toEqual(['27836660001']);
});

test('happy path: every message is delivered within 2 seconds', async () => {
  const emulator = withScenario('happy-path');
  const message = await send(emulator, { recipient: ['27830000002', '27831234567'], message: 'Hi' });
  await emulator.clock.advance('2s');
  expect(legStatuses(emulator, message.id)).toEqual(['delivered', 'delivered']);
});

test('flaky network: outcomes follow the weights, and the same seed draws the same outcomes', async () => {
  const run = async () => {
    const emulator = withScenario('flaky-network', { seed: 'flaky' });
    const recipients = Array.from({ length: 400 }, (_, i) => `2783${String(1_000_000 + i).padStart(7, '0')}`);
    const message = await send(emulator, { recipient: recipients, message: 'Flaky' });
    await emulator.clock.advance('2h');
    return legStatuses(emulator, message.id);
  };
  const outcomes = await run();
  const count = (status: string) => outcomes.filter((value) => value === status).length;
  expect(count('delivered') + count('undelivered') + count('expired')).toBe(400);
  expect(count('delivered')).toBeGreaterThan(330);
  expect(count('undelivered')).toBeGreaterThan(10);
  expect(count('expired')).toBeGreaterThan(2);
  expect(await run()).toEqual(outcomes);
});

test('credit exhaustion: a message scheduled with credits fails when the balance is gone at its time', async () => {
  const emulator = withScenario('credit-exhaustion');
  expect(await balance(emulator)).toBe(10);
  const scheduled = await send(emulator, { recipient: ['27831234567'], message: 'Later', schedule: scheduleIn(20) });
  await emulator.clock.advance('10m');
  expect(await balance(emulator)).toBe(0);
  await emulator.clock.advance('10m');
  expect(emulator.messages.get(scheduled.id)).toMatchObject({ status: 'failed', credit: 0 });
});

test('conversational: delivered messages get generated replies, yes/no to questions, the same for the same seed', async () => {
  const run = async () => {
    const emulator = withScenario('conversational', { seed: 'chat' });
    await send(emulator, { recipient: ['27831234567'], message: 'Are you coming?' });
    await send(emulator, { recipient: ['27831234568'], message: 'Tell me about your day' });
    await emulator.clock.advance('30s');
    return emulator.replies.list().items.map((reply) => reply.message);
  };
  const replies = await run();
  expect(replies).toHaveLength(2);
  expect(['Yes', 'No', 'Yes please', 'No thanks', 'Maybe later', 'OK']).toContain(replies[0]);
  expect(replies[1]).toMatch(/^[A-Z][a-z]+( [a-z]+)*\.$/);
  expect(await run()).toEqual(replies);
});

test('rate limited: the 6th send in a second is 429 with Retry-After; the next second is allowed again', async () => {
  const emulator = withScenario('rate-limited');
  const body = { recipient: ['27831234567'], message: 'Hi' };
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await call(emulator, 'POST', '/v1/messages', { body })).status);
  expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  const limited = await call(emulator, 'POST', '/v1/messages', { body });
  expect(limited.body.message).toBe('TOO_MANY_REQUESTS');
  expect(limited.headers.get('retry-after')).toBe('1');
  expect((await call(emulator, 'GET', '/v1/messages/balance')).status).toBe(200);
  await emulator.clock.advance('1s');
  expect((await call(emulator, 'POST', '/v1/messages', { body })).status).toBe(201);
});

test('degraded API: the next 2 sends fail with 503, reads are slowed, and nothing is charged for the failures', async () => {
  const emulator = withScenario('degraded-api', { seed: 'degraded' });
  const body = { recipient: ['27831234567'], message: 'Hi' };
  const first = await call(emulator, 'POST', '/v1/messages', { body });
  expect(first.status).toBe(503);
  expect(first.body.message).toBe('INTERNAL_SERVER_ERROR');
  expect((await call(emulator, 'POST', '/v1/messages', { body })).status).toBe(503);
  expect((await call(emulator, 'POST', '/v1/messages', { body })).status).toBe(201);
  const started = performance.now();
  expect((await call(emulator, 'GET', '/v1/messages')).status).toBe(200);
  // A lower bound on an injected sleep cannot flake: the fault must have waited at least this long.
  expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  const balances = [];
  for (let i = 0; i < 20; i++) balances.push((await call(emulator, 'GET', '/v1/messages/balance')).status);
  expect(balances).toContain(502);
  expect(balances).toContain(200);
  expect(emulator.accounts.get(apiKey).live.balance).toBe(999);
});

test('X-Emulator-Outcome forces the outcome of one send: a name or a timeline', async () => {
  const emulator = makeEmulator();
  const named = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567'], message: 'a' },
    headers: { 'x-emulator-outcome': 'undelivered' },
  });
  const timed = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567'], message: 'b' },
    headers: { 'x-emulator-outcome': 'submitted@2s,noroute@1m' },
  });
  await emulator.clock.advance('30s');
  expect(emulator.messages.get(named.body.id).status).toBe('undelivered');
  expect(emulator.messages.get(timed.body.id).status).toBe('submitted');
  await emulator.clock.advance('1m');
  expect(emulator.messages.get(timed.body.id).status).toBe('noroute');
});

test('a malformed X-Emulator-Outcome is refused with INVALID_EMULATOR_HEADER and sends nothing', async () => {
  const emulator = makeEmulator();
  for (const value of ['lost', 'delivered@soon', 'delivered@1s,submitted@1s']) {
    const reply = await call(emulator, 'POST', '/v1/messages', {
      body: { recipient: ['27831234567'], message: 'x' },
      headers: { 'x-emulator-outcome': value },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('INVALID_EMULATOR_HEADER');
  }
  expect(emulator.messages.list().items).toEqual([]);
});

test('INVALID_EMULATOR_HEADER repeats at most 64 characters of the header, with an ellipsis', async () => {
  const emulator = makeEmulator();
  for (const value of ['x'.repeat(8000), `submitted@1s,${'y'.repeat(8000)}`]) {
    const reply = await call(emulator, 'POST', '/v1/messages', {
      body: { recipient: ['27831234567'], message: 'x' },
      headers: { 'x-emulator-outcome': value },
    });
    expect(reply.body.message).toBe('INVALID_EMULATOR_HEADER');
    expect(reply.body.description.length).toBeLessThan(500);
    expect(reply.body.description).toContain(`X-Emulator-Outcome "${value.slice(0, 64)}…" is not valid`);
  }
});

test('outcomeHeader false ignores the header', async () => {
  const emulator = makeEmulator({ outcomeHeader: false });
  const reply = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567'], message: 'x' },
    headers: { 'x-emulator-outcome': 'lost' },
  });
  expect(reply.status).toBe(201);
});

test('rules match on text, client_reference, environment and account; first match wins', async () => {
  const emulator = makeEmulator({
    scenario: {
      version: 1,
      rules: [
        { match: { environment: 'sandbox' }, outcome: 'noroute' },
        { match: { text: { regex: '^URGENT' } }, outcome: 'undelivered' },
        { match: { clientReference: 'vip' }, outcome: 'blist' },
        { match: { recipient: { glob: '2783*99' } }, outcome: 'failed' },
        { match: { recipient: { prefix: '2782' }, account: apiKey }, outcome: 'expired' },
      ],
    },
  });
  const ids = [
    (await send(emulator, { recipient: ['27831234567'], message: 'x' }, 'sandbox')).id,
    (await send(emulator, { recipient: ['27831234567'], message: 'URGENT now' })).id,
    (await send(emulator, { recipient: ['27831234567'], message: 'x', client_reference: 'a vip b' })).id,
    (await send(emulator, { recipient: ['27831234599'], message: 'x' })).id,
    (await send(emulator, { recipient: ['27821234567'], message: 'x' })).id,
    (await send(emulator, { recipient: ['27831234567'], message: 'x' })).id,
  ];
  await emulator.clock.advance('5s');
  expect(ids.map((id) => emulator.messages.get(id).status)).toEqual([
    'noroute',
    'undelivered',
    'blist',
    'failed',
    'submitted',
    'delivered',
  ]);
});

test('timeline events run at their offsets: balance, webhook URL, replies, faults on and off', async () => {
  const emulator = makeEmulator({
    scenario: {
      version: 1,
      faults: [{ name: 'outage', enabled: false, match: { operation: 'balance' }, error: { status: 503 } }],
      timeline: [
        { at: '1m', setBalance: { balance: 5 } },
        { at: '2m', startFault: 'outage' },
        { at: '3m', stopFault: 'outage' },
        { at: '4m', reply: { from: '27831234567', text: 'Late reply' } },
        { at: '5m', webhookUrl: { url: 'http://127.0.0.1:9/hook', environment: 'sandbox' } },
      ],
    },
  });
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1m');
  expect(await balance(emulator)).toBe(5);
  await emulator.clock.advance('1m');
  expect((await call(emulator, 'GET', '/v1/messages/balance')).status).toBe(503);
  await emulator.clock.advance('1m');
  expect((await call(emulator, 'GET', '/v1/messages/balance')).status).toBe(200);
  await emulator.clock.advance('1m');
  expect(emulator.replies.list().items.map((reply) => reply.message)).toEqual(['Late reply']);
  await emulator.clock.advance('1m');
  expect(emulator.accounts.get(apiKey).sandbox.webhookUrl).toBe('http://127.0.0.1:9/hook');
});

test.each([
  [
    'a fault with an unknown error code',
    'version: 1\nfaults:\n  - error: { status: 503, code: SERVICE_DOWN }\n',
    'scenario:3:',
    'faults[0].error.code',
  ],
  [
    'two accounts with one API key',
    'version: 1\naccounts:\n  - apiKey: pk_team\n  - apiKey: pk_team\n    balance: 0\n',
    'scenario:4:',
    'accounts[1].apiKey',
  ],
])('a scenario with %s is refused at load with SCENARIO_INVALID naming the field', async (_, text, line, path) => {
  expect(() => makeEmulator({ scenario: parseYaml(text) })).toThrow(path);
  const emulator = makeEmulator();
  const before = emulator.scenario.get();
  const refused = await call(emulator, 'PUT', '/_emulator/scenario', {
    raw: text,
    key: false,
    contentType: 'application/yaml',
  });
  expect(refused).toMatchObject({
    status: 400,
    body: { message: 'SCENARIO_INVALID', description: expect.stringContaining(`${line}`) },
  });
  expect(refused.body.description).toContain(path);
  expect(emulator.scenario.get()).toEqual(before);
  expect(emulator.accounts.list().items.map((account) => account.apiKey)).toEqual([apiKey]);
});

test('a scenario can be read and replaced at runtime; a bad one is refused and changes nothing', async () => {
  const emulator = makeEmulator();
  const control = (method: string, raw?: string) =>
    call(emulator, method, '/_emulator/scenario', { raw, key: false, contentType: 'application/yaml' });
  expect((await control('GET')).body.rules).toHaveLength(9);
  const bad = await control('PUT', 'version: 1\nrules:\n  - outcome: lost\n');
  expect(bad.status).toBe(400);
  expect(bad.body).toMatchObject({ message: 'SCENARIO_INVALID', description: expect.stringContaining('scenario:3:') });
  const withOptions = await control('PUT', 'version: 1\noptions:\n  batchLimit: 5\n');
  expect(withOptions.body.description).toContain('batchLimit');
  expect((await control('GET')).body.rules).toHaveLength(9);
  expect((await control('PUT', 'version: 1\nrules:\n  - outcome: undelivered\n')).status).toBe(200);
  const message = await send(emulator, { recipient: ['27830000001'], message: 'x' });
  await emulator.clock.advance('5s');
  expect(emulator.messages.get(message.id).status).toBe('undelivered');
});

test('the same scenario, seed, requests and clock steps give byte-identical transcripts', async () => {
  const session = async () => {
    const emulator = withScenario('flaky-network', { seed: 'transcript' });
    const transcript: unknown[] = [];
    emulator.on('leg.status', ({ message, leg, status, at }) =>
      transcript.push(['leg', message.id, leg.recipient, status, at]),
    );
    emulator.on('reply.received', ({ reply }) => transcript.push(['reply', reply.id, reply.message]));
    for (let i = 0; i < 5; i++) {
      const reply = await call(emulator, 'POST', '/v1/messages', {
        body: { recipient: ['27830000007', `2783100000${i}`], message: `m${i}` },
      });
      transcript.push(['response', reply.status, reply.body]);
      await emulator.clock.advance('20s');
    }
    await emulator.clock.advance('2h');
    transcript.push(['messages', emulator.messages.list().items], ['replies', emulator.replies.list().items]);
    return JSON.stringify(transcript);
  };
  const first = await session();
  expect(first.length).toBeGreaterThan(1000);
  expect(await session()).toBe(first);
});

test('a scenario adds to the built-in magic numbers: its own rules and replies first, then theirs', async () => {
  const emulator = makeEmulator({
    scenario: {
      version: 1,
      rules: [
        { match: { recipient: '27830000001' }, outcome: 'noroute' },
        { match: { recipient: '27839*' }, outcome: 'failed' },
      ],
    },
  });
  const message = await send(emulator, {
    recipient: ['27830000001', '27830000002', '27839000000', '27830000007'],
    message: 'Hi',
  });
  await emulator.clock.advance('5s');
  expect(legStatuses(emulator, message.id)).toEqual(['noroute', 'undelivered', 'failed', 'delivered']);
  await emulator.clock.advance('30s');
  expect(emulator.replies.list().items.map((reply) => reply.message)).toEqual(['Thanks, got it!']);
});

test('magicNumbers: false in a scenario leaves only its own rules, at start and when set at runtime', async () => {
  const scenario = {
    version: 1 as const,
    magicNumbers: false,
    rules: [{ match: { recipient: '27839*' }, outcome: 'failed' as const }],
  };
  for (const emulator of [makeEmulator({ scenario }), makeEmulator()]) {
    emulator.scenario.set(scenario);
    const message = await send(emulator, { recipient: ['27830000002', '27839000000', '27830000007'], message: 'Hi' });
    await emulator.clock.advance('1m');
    expect(legStatuses(emulator, message.id)).toEqual(['delivered', 'failed', 'delivered']);
    expect(emulator.replies.list().items).toEqual([]);
    expect(emulator.scenario.get().magicNumbers).toBe(false);
  }
});

test('of several scenario files the last that says magicNumbers decides', async () => {
  const off = { version: 1 as const, magicNumbers: false };
  const silent = { version: 1 as const, description: 'adds nothing about magic numbers' };
  expect(makeEmulator({ scenario: [off, silent] }).scenario.get().magicNumbers).toBe(false);
  expect(
    makeEmulator({ scenario: [off, { version: 1 as const, magicNumbers: true }] }).scenario.get().magicNumbers,
  ).toBe(true);
  const emulator = makeEmulator({ scenario: [off, silent] });
  const message = await send(emulator, { recipient: ['27830000002'], message: 'Hi' });
  await emulator.clock.advance('5s');
  expect(legStatuses(emulator, message.id)).toEqual(['delivered']);
});

test('stop, " Stop " and STOP each opt the number out; 27830000009 replies stop in lower case and is opted out', async () => {
  for (const text of ['stop', ' Stop ', 'STOP']) {
    const emulator = makeEmulator();
    const first = await send(emulator, { recipient: ['27831234567'], message: 'Promo' });
    await emulator.replies.inject(first.id, { text });
    expect(emulator.optOuts.list().items, text).toEqual(['27831234567']);
  }
  const emulator = makeEmulator();
  await send(emulator, { recipient: ['27830000009'], message: 'Promo 1' });
  await emulator.clock.advance('1m');
  expect(emulator.replies.list().items.map((reply) => reply.message)).toEqual(['stop']);
  expect(emulator.optOuts.list().items).toEqual(['27830000009']);
  const next = await send(emulator, { recipient: ['27830000009'], message: 'Promo 2' });
  await emulator.clock.advance('5s');
  expect(legStatuses(emulator, next.id)).toEqual(['blist']);
});

test('the opt-out and opt-in word lists are options: other words opt out and in, the defaults no longer do', async () => {
  const emulator = makeEmulator({ optOutKeywords: ['unsubscribe', 'STOPALL'], optInKeywords: ['unstop'] });
  const first = await send(emulator, { recipient: ['27831234567', '27837654321'], message: 'Promo' });
  await emulator.replies.inject(first.id, { from: '27831234567', text: 'STOP' });
  expect(emulator.optOuts.list().items).toEqual([]);
  await emulator.replies.inject(first.id, { from: '27831234567', text: ' Unsubscribe' });
  await emulator.replies.inject(first.id, { from: '27837654321', text: 'stopall' });
  expect(emulator.optOuts.list().items).toEqual(['27831234567', '27837654321']);
  await emulator.replies.inject(first.id, { from: '27831234567', text: 'START' });
  expect(emulator.optOuts.list().items).toEqual(['27831234567', '27837654321']);
  await emulator.replies.inject(first.id, { from: '27831234567', text: 'UNSTOP' });
  expect(emulator.optOuts.list().items).toEqual(['27837654321']);
});
