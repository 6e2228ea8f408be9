import { describe, expect } from 'vitest';
import { createSmsTest } from '../../src/vitest/index.js';

const test = createSmsTest({
  emulator: { clock: 'manual', seed: 'vitest-fixture', startTime: '2026-11-21T10:00:00Z' },
  account: { balance: 50 },
});

const overSockets = createSmsTest({ emulator: { clock: 'manual', seed: 'sockets' }, webhooks: 'socket' });

let previousKey = '';

describe('one account per test', () => {
  test('gives the test its own account, a client signed in as it and a catcher wired to it', async ({ sms }) => {
    previousKey = sms.account.apiKey;
    expect((await sms.client.balance()).balance).toBe(50);
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Hello' });
    await sms.waitFor(sent.id).toReach('delivered', { within: '1m' });
    expect(sms.webhooks().map((payload) => payload.status)).toEqual(['submitted', 'delivered']);
    expect((await sms.emulator.accounts.get(sms.account.apiKey)).live.webhookUrl).toBe(sms.catcher.url);
  });

  test('deletes the account after the test', ({ sms }) => {
    expect(() => sms.emulator.accounts.get(previousKey)).toThrow(/not/i);
  });
});

describe('concurrent tests do not see each other', () => {
  for (const name of ['first', 'second', 'third']) {
    test.concurrent(`${name} sees only its own messages and webhooks`, async ({ sms, expect }) => {
      const sent = await sms.client.send({ recipient: '27831234567', message: name });
      await sms.waitFor(sent.id).toReach('delivered', { within: '1m' });
      expect((await sms.messages()).map((message) => message.message)).toEqual([name]);
      expect(sms.webhooks().every((payload) => payload.message === name)).toBe(true);
      expect(sms).toHaveReceivedWebhook({ id: sent.id, status: 'delivered' });
    });
  }
});

test('toHaveSent passes on a match and shows what was sent when nothing matches', async ({ sms }) => {
  await sms.client.send({ recipient: '27831234567', message: 'Your appointment is at 10:00', client_reference: 'a-1' });
  expect(sms).toHaveSent({ to: '27831234567', text: /appointment/ });
  expect(sms).toHaveSent({ to: '27831234567', text: 'Your appointment is at 10:00', client_reference: 'a-1' });
  expect(sms).not.toHaveSent({ to: '27830000000' });
  expect(() => expect(sms).toHaveSent({ to: '27839999999', text: 'Other' })).toThrow(
    /to have sent a message with to "27839999999", text "Other"; it sent 1:\n {2}- to 27831234567: "Your appointment is at 10:00" \(pending, id /,
  );
});

test('toHaveSent says so when the account sent nothing', ({ sms }) => {
  expect(() => expect(sms).toHaveSent({ text: 'x' })).toThrow(/it sent nothing$/);
});

test('toHaveReceivedWebhook lists the payloads received when none matches', async ({ sms }) => {
  const sent = await sms.client.send({ recipient: '27830000002', message: 'Fails' });
  await sms.waitFor(sent.id).toReach('undelivered');
  expect(sms).toHaveReceivedWebhook({ id: sent.id, status: 'undelivered', recipient: '27830000002' });
  expect(() => expect(sms).toHaveReceivedWebhook({ id: sent.id, status: 'delivered' })).toThrow(
    new RegExp(
      `it received 2:\\n {2}- sms ${sent.id} submitted to 27830000002: "Fails"\\n {2}- sms ${sent.id} undelivered`,
    ),
  );
});

test('toHaveStatus compares the status and shows the history on failure', async ({ sms }) => {
  const sent = await sms.client.send({ recipient: '27831234567', message: 'Hi' });
  expect(sent).toHaveStatus('pending');
  const view = sms.emulator.messages.get(sent.id);
  expect(() => expect(view).toHaveStatus('delivered')).toThrow(
    /it is "pending"\nhistory: pending at 2026-11-21T12:\d\d:\d\d\+02:00\n {2}leg 27831234567: pending at \S+; upcoming: submitted at \S+/,
  );
});

test('toHaveMadeRequest counts the requests of the test account from the journal, exactly with a count', async ({
  sms,
}) => {
  await sms.client.send({ recipient: '27831234567', message: 'One' });
  await sms.client.send({ recipient: '27831234567', message: 'Two' });
  await sms.client.balance();
  expect(sms).toHaveMadeRequest({ method: 'POST', path: '/v1/messages' }, 2);
  expect(sms).toHaveMadeRequest({ method: 'post', path: '/v1/messages' }, 2);
  expect(sms).toHaveMadeRequest({ path: /^\/v1\/messages/ }, 3);
  expect(sms).toHaveMadeRequest({ path: '/v1/messages/balance', status: 200 });
  expect(sms).not.toHaveMadeRequest({ method: 'POST', path: '/v1/messages' }, 1);
  expect(() => expect(sms).toHaveMadeRequest({ method: 'DELETE' })).toThrow(
    /to have made a request with method "DELETE" at least once; it made none\. Its requests:\n {2}- POST \/v1\/messages 201 at \S+\n {2}- POST \/v1\/messages 201 at \S+\n {2}- GET \/v1\/messages\/balance 200 at \S+$/,
  );
  expect(() => expect(sms).toHaveMadeRequest({}, -1)).toThrow(/times must be a whole number from 0, not -1/);
});

test("toHaveMadeRequest on the emulator counts any account's requests, or the one named", async ({ sms, emulator }) => {
  await sms.client.send({ recipient: '27831234567', message: 'Counted' });
  expect(emulator).toHaveMadeRequest({ method: 'POST', path: '/v1/messages', account: sms.account.apiKey }, 1);
  expect(emulator).toHaveMadeRequest({ method: 'POST', path: '/v1/messages' });
});

const shared = createSmsTest({ emulator: { clock: 'manual', seed: 'shared-clock' }, clock: 'shared' });

describe("clock: 'shared' keeps every account on the main clock", () => {
  shared('the account has no test clock and sms.clock moves the main clock', async ({ sms, emulator }) => {
    expect(sms.clock.id).toBeNull();
    expect((await emulator.accounts.get(sms.account.apiKey)).clock).toBeNull();
    const before = sms.now().getTime();
    await sms.clock.advance('1h');
    expect(sms.now().getTime()).toBe(before + 3_600_000);
    expect((await emulator.clock.now()).getTime()).toBe(before + 3_600_000);
  });
});

test('each test account lives on a test clock of its own, which the main clock does not move', async ({
  sms,
  emulator,
}) => {
  expect(sms.clock.id).not.toBeNull();
  expect((await emulator.accounts.get(sms.account.apiKey)).clock).toBe(sms.clock.id);
  const before = sms.now().getTime();
  await emulator.clock.advance('1h');
  expect(sms.now().getTime()).toBe(before);
});

describe('a test without a name still gets a test clock of its own (its name is the clock name, and a clock name is never empty)', () => {
  test('', async ({ sms }) => {
    expect(sms.clock.id).toMatch(/^clock_/);
    const before = sms.now().getTime();
    expect((await sms.clock.advance('1m')).now - before).toBe(60_000);
  });
});

describe('sms.scenario is the test account own scenario', () => {
  test.concurrent('a rule it sets decides the test account messages, until cleared', async ({ sms, expect }) => {
    await sms.scenario.set({ rules: [{ match: { recipient: '27831234567' }, outcome: 'undelivered' }] });
    expect((await sms.scenario.get()).rules).toHaveLength(1);
    const failed = await sms.client.send({ recipient: '27831234567', message: 'mine' });
    await sms.waitFor(failed.id).toReach('undelivered', { within: '1m' });
    await sms.scenario.clear();
    const delivered = await sms.client.send({ recipient: '27831234567', message: 'mine again' });
    await sms.waitFor(delivered.id).toReach('delivered', { within: '1m' });
  });

  test.concurrent('a concurrent test is not touched by that rule', async ({ sms, expect }) => {
    const sent = await sms.client.send({ recipient: '27831234567', message: 'yours' });
    await sms.waitFor(sent.id).toReach('delivered', { within: '1m' });
    expect((await sms.scenario.get()).rules).toEqual([]);
  });
});

describe('delivery behaviours are per test', () => {
  test.concurrent('a test that asks for disorder and duplicates gets them', async ({ sms, expect }) => {
    await sms.scenario.set({
      webhooks: [{ behaviour: 'reorder' }, { behaviour: 'duplicate', match: { status: 'delivered' } }],
    });
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Messy' });
    await sms.waitFor(sent.id).toReach('delivered', { within: '1m' });
    expect(sms.webhooks().map((payload) => payload.status)).toEqual(['delivered', 'delivered', 'submitted']);
  });

  test.concurrent('a late receipt comes only when the test moves its own clock past it', async ({ sms, expect }) => {
    await sms.scenario.set({ webhooks: [{ behaviour: 'late', after: '1h', match: { status: 'delivered' } }] });
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Late' });
    await sms.waitFor(sent.id).toReach('delivered', { within: '1m' });
    expect(sms.webhooks().map((payload) => payload.status)).toEqual(['submitted']);
    await sms.clock.advance('1h');
    expect(sms.webhooks().map((payload) => payload.status)).toEqual(['submitted', 'delivered']);
  });

  test.concurrent('an orphan receipt and an ignored answer reach this test only', async ({ sms, expect }) => {
    await sms.scenario.set({
      webhooks: [
        { behaviour: 'orphan', match: { status: 'delivered' } },
        { behaviour: 'answer-ignored', match: { status: 'submitted' } },
      ],
    });
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Orphaned' });
    await sms.waitFor(sent.id).toReach('delivered', { within: '1m' });
    const received = sms.webhooks().map((payload) => `${payload.id === sent.id ? 'own' : 'orphan'}:${payload.status}`);
    // The orphan has a queue of its own (its own id), so it may come before or after the message's receipt.
    expect(received.sort()).toEqual(['orphan:delivered', 'own:delivered', 'own:submitted', 'own:submitted']);
  });

  test.concurrent('a concurrent test beside it sees the tidy order', async ({ sms, expect }) => {
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Tidy' });
    await sms.waitFor(sent.id).toReach('delivered', { within: '1m' });
    expect(sms.webhooks().map((payload) => payload.status)).toEqual(['submitted', 'delivered']);
  });
});

describe('how the embedded emulator reaches the catcher', () => {
  test('in process by default: the catcher gets each post with no socket, signed and re-attempted as over HTTP', async ({
    sms,
  }) => {
    sms.catcher.respondWith([500, 200]);
    const sent = await sms.client.send({ recipient: '27831234567', message: 'In process' });
    await sms.waitFor(sent.id).toReach('submitted', { within: '1m' });
    const [first, second] = sms.catcher.received;
    // No HTTP request line and headers: the post never crossed a socket.
    expect(first?.headers.host).toBeUndefined();
    expect([first?.headers['x-emulator-attempt'], second?.headers['x-emulator-attempt']]).toEqual(['1', '2']);
    const event = (await sms.emulator.webhooks.list({ account: sms.account.apiKey })).items[0];
    expect(event?.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    expect(event?.state).toBe('delivered');
  });

  overSockets('webhooks: socket posts over HTTP to the same catcher', async ({ sms }) => {
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Over a socket' });
    await sms.waitFor(sent.id).toReach('delivered', { within: '1m' });
    expect(sms.catcher.received.map((request) => request.headers.host)).toEqual([
      new URL(sms.catcher.url).host,
      new URL(sms.catcher.url).host,
    ]);
  });
});
