/** Delivery behaviours (duplicate, reorder, late, orphan, answer-ignored): per account, on both request paths, seeded. */

import { afterEach, expect, test } from 'vitest';
import { type Emulator, createWebhookCatcher, type WebhookCatcher } from '../../src/index.js';
import { apiKey, call, makeEmulator, useRequestPath } from '../support/api.js';
import { requestPaths } from '../support/requestPaths.js';

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  useRequestPath('hono');
  for (const item of open.splice(0)) await item.close();
});

interface Setup {
  emulator: Emulator;
  catcher: WebhookCatcher;
  send: (recipient?: string) => Promise<string>;
  clockId: string;
}

/** An emulator, a catcher, and a world whose own scenario has `webhooks`; `send` posts through the current request path. */
async function setup(webhooks: unknown[], seed = 'behaviours'): Promise<Setup> {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator({ seed });
  open.push(emulator, catcher);
  const { account, clock } = emulator.worlds.create({
    startTime: '2030-01-01T08:00:00Z',
    account: { webhookUrl: catcher.url },
    scenario: { webhooks } as never,
  });
  const send = async (recipient = '27831234567'): Promise<string> => {
    const answer = await call(emulator, 'POST', '/v1/messages', {
      body: { recipient: [recipient], message: 'Your parcel is on its way' },
      key: account.apiKey,
      sign: account.signingSecret,
    });
    expect(answer.status).toBe(201);
    return answer.body.id as string;
  };
  return { emulator, catcher, send, clockId: clock.id };
}

const statuses = (catcher: WebhookCatcher): string[] =>
  catcher.received.map((request) => `${request.body.id as string}:${request.body.status as string}`);

test.each(requestPaths)('duplicate: the delivered notification arrives three times, through %s', async (path) => {
  useRequestPath(path);
  const { emulator, catcher, send } = await setup([
    { behaviour: 'duplicate', times: 3, match: { status: 'delivered' } },
  ]);
  const id = await send();
  await emulator.waitFor(id).toReach('delivered');
  expect(statuses(catcher)).toEqual([`${id}:submitted`, `${id}:delivered`, `${id}:delivered`, `${id}:delivered`]);
  const logged = emulator.webhooks.list({ message: id }).items;
  expect(logged.filter((event) => event.behaviours.includes('duplicate'))).toHaveLength(2);
});

test('duplicate with after: each copy is posted that long after the one before, as a gateway re-sends', async () => {
  const { emulator, catcher, send, clockId } = await setup([
    { behaviour: 'duplicate', times: 3, after: '2s', match: { status: 'delivered' } },
  ]);
  const id = await send();
  const start = Date.parse('2030-01-01T08:00:00Z');
  const delivered = () => catcher.received.filter((request) => request.body.status === 'delivered').length;
  for (const [second, count] of [
    [5, 1],
    [6, 1],
    [7, 2],
    [8, 2],
    [9, 3],
  ] as const) {
    await emulator.clocks.set(clockId, new Date(start + second * 1000).toISOString());
    await emulator.webhooks.settled();
    expect(delivered(), `at +${second}s`).toBe(count);
  }
  const tried = emulator.webhooks
    .list({ message: id })
    .items.filter((event) => event.status === 'delivered')
    .map((event) => Date.parse(event.attempts[0]!.at) - start);
  expect(tried).toEqual([5000, 7000, 9000]);
});

test("a duplicate is a re-send: every copy carries the first one's event id and the very same body, as check-receiver sends it", async () => {
  const { emulator, catcher, send } = await setup([
    { behaviour: 'duplicate', times: 3, match: { status: 'delivered' } },
  ]);
  const id = await send();
  await emulator.waitFor(id).toReach('delivered');
  const delivered = catcher.received.filter((request) => request.body.status === 'delivered');
  expect(delivered).toHaveLength(3);
  const [first, ...again] = delivered;
  const eventId = first!.headers['x-emulator-event-id'];
  for (const copy of again) {
    expect(copy.headers['x-emulator-event-id']).toBe(eventId);
    expect(copy.rawBody).toBe(first!.rawBody);
  }
  // The log keeps each try apart and names the event each copy repeats.
  const logged = emulator.webhooks.list({ message: id }).items.filter((event) => event.status === 'delivered');
  const original = logged.find((event) => event.duplicateOf === undefined)!;
  expect(original.id).toBe(eventId);
  expect(logged.filter((event) => event.duplicateOf === eventId)).toHaveLength(2);
});

test("one notification is posted at most 10 times however many duplicates match it, the account's and the emulator's together", async () => {
  const many = Array.from({ length: 30 }, () => ({
    behaviour: 'duplicate',
    times: 10,
    match: { status: 'delivered' },
  }));
  const { emulator, catcher, send } = await setup(many);
  emulator.scenario.set({ version: 1, webhooks: many.slice(0, 20) as never });
  const id = await send();
  await emulator.waitFor(id).toReach('delivered');
  expect(statuses(catcher)).toEqual([`${id}:submitted`, ...Array.from({ length: 10 }, () => `${id}:delivered`)]);
  expect(emulator.webhooks.list({ message: id, limit: 1000 }).items).toHaveLength(11);
});

test('a scenario with more delivery behaviours, rules, replies or faults than its bound is SCENARIO_INVALID naming it, and changes nothing', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  const { account } = emulator.worlds.create({ scenario: { webhooks: [{ behaviour: 'orphan' }] } as never });
  const before = emulator.accounts.getScenario(account.apiKey);
  const globalBefore = emulator.scenario.get();
  const lists = {
    webhooks: [51, { behaviour: 'duplicate', match: { status: 'delivered' } }],
    rules: [1001, { outcome: 'delivered' }],
    replies: [1001, { text: 'ok' }],
    faults: [101, { error: { status: 500 } }],
  } as const;
  for (const [list, [count, entry]] of Object.entries(lists)) {
    const scenario = { [list]: Array.from({ length: count }, () => entry) };
    for (const attempt of [
      () => emulator.accounts.setScenario(account.apiKey, scenario as never),
      () => emulator.scenario.set({ version: 1, ...scenario } as never),
    ]) {
      expect(attempt).toThrow(
        expect.objectContaining({
          code: 'SCENARIO_INVALID',
          message: expect.stringContaining(`at most ${count - 1} ${list}`),
        }),
      );
    }
  }
  expect(emulator.accounts.getScenario(account.apiKey)).toEqual(before);
  expect(emulator.scenario.get()).toEqual(globalBefore);
});

test.each(requestPaths)("reorder: a message's outcome arrives before its submitted, through %s", async (path) => {
  useRequestPath(path);
  const { emulator, catcher, send } = await setup([{ behaviour: 'reorder' }]);
  const id = await send();
  await emulator.waitFor(id).toReach('delivered');
  expect(statuses(catcher)).toEqual([`${id}:delivered`, `${id}:submitted`]);
  expect(
    emulator.webhooks.list({ message: id }).items.find((event) => event.status === 'submitted')?.behaviours,
  ).toEqual(['reorder']);
});

test.each(requestPaths)('late: the receipt is held six virtual hours on its own clock, through %s', async (path) => {
  useRequestPath(path);
  const { emulator, catcher, send, clockId } = await setup([
    { behaviour: 'late', after: '6h', match: { status: 'delivered' } },
  ]);
  const neighbour = emulator.worlds.create({ account: { webhookUrl: catcher.url } });
  const id = await send();
  await emulator.waitFor(id).toReach('delivered');
  expect(statuses(catcher)).toEqual([`${id}:submitted`]);
  // The held receipt is its clock's alone: another world's clock moves as if it were not there.
  await emulator.clocks.advance(neighbour.clock.id, '7h');
  expect(statuses(catcher)).toEqual([`${id}:submitted`]);
  await emulator.clocks.advance(clockId, '6h');
  expect(statuses(catcher)).toEqual([`${id}:submitted`, `${id}:delivered`]);
});

test.each(requestPaths)(
  'orphan: one more receipt arrives for an id the account never sent, through %s',
  async (path) => {
    useRequestPath(path);
    const { emulator, catcher, send } = await setup([{ behaviour: 'orphan', match: { status: 'delivered' } }]);
    const id = await send();
    await emulator.waitFor(id).toReach('delivered');
    const orphans = catcher.received.filter((request) => request.body.id !== id);
    expect(orphans).toHaveLength(1);
    const orphan = orphans[0]?.body as { id: string; status: string; _links: { self: { href: string } } };
    expect(orphan.status).toBe('delivered');
    expect(orphan._links.self.href).toContain(orphan.id);
    const account = emulator.webhooks.list({ message: orphan.id }).items[0]?.account as string;
    expect((await call(emulator, 'GET', `/v1/messages/${orphan.id}`, { key: account })).status).toBe(404);
  },
);

test.each(requestPaths)(
  "answer-ignored: the receiver's 200 is taken as lost, so the retry rule sends it again, through %s",
  async (path) => {
    useRequestPath(path);
    const { emulator, catcher, send } = await setup([{ behaviour: 'answer-ignored', match: { status: 'submitted' } }]);
    const id = await send();
    await emulator.waitFor(id).toReach('delivered');
    expect(statuses(catcher)).toEqual([`${id}:submitted`, `${id}:submitted`, `${id}:delivered`]);
    const submitted = emulator.webhooks.list({ message: id }).items.find((event) => event.status === 'submitted');
    expect(submitted?.attempts.map((attempt) => [attempt.status, attempt.ok])).toEqual([
      [200, false],
      [200, true],
    ]);
    expect(submitted?.attempts[0]?.error).toBe('answered 200, taken as lost (answer-ignored)');
  },
);

test('behaviours touch only the account whose scenario has them; the timeline report names them', async () => {
  const { emulator, catcher, send } = await setup([{ behaviour: 'duplicate', match: { status: 'delivered' } }]);
  const tidy = emulator.worlds.create({ account: { webhookUrl: catcher.url } });
  const id = await send();
  const other = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567'], message: 'Tidy' },
    key: tidy.account.apiKey,
    sign: tidy.account.signingSecret,
  });
  await emulator.waitFor(id).toReach('delivered');
  await emulator.waitFor(other.body.id as string).toReach('delivered');
  expect(catcher.received.filter((request) => request.body.id === other.body.id)).toHaveLength(2);
  expect(catcher.received.filter((request) => request.body.id === id)).toHaveLength(3);
  const account = emulator.webhooks.list({ message: id }).items[0]?.account as string;
  const report = emulator.report({ account, format: 'json' });
  expect(report.entries.some((entry) => entry.kind === 'webhook' && entry.summary.includes('[duplicate]'))).toBe(true);
});

test('the same seed gives the same deliveries byte for byte; probability and nth pick with it', async () => {
  const run = async (seed: string): Promise<string[]> => {
    const { emulator, catcher, send } = await setup(
      [
        { behaviour: 'duplicate', probability: 0.5 },
        { behaviour: 'orphan', nth: 2 },
      ],
      seed,
    );
    for (const recipient of ['27831230001', '27831230002', '27831230003', '27831230004']) {
      const id = await send(recipient);
      await emulator.waitFor(id).toReach('delivered');
    }
    // An orphan has a queue of its own, so it may come before or after its message's receipt: compared as a set.
    return catcher.received.map((request) => JSON.stringify(request.body)).sort();
  };
  const first = await run('same-seed');
  expect(await run('same-seed')).toEqual(first);
  expect(await run('another-seed')).not.toEqual(first);
});

test('a behaviour rule that does not hold together is refused with the path of the field', () => {
  const refused = (webhooks: unknown[]) => () => makeEmulator({ scenario: { version: 1, webhooks } as never });
  expect(refused([{ behaviour: 'duplicate', times: 1 }])).toThrow(
    /webhooks\[0\]\.times: times goes with duplicate \(2 or more\)/,
  );
  expect(refused([{ behaviour: 'orphan', after: '1h' }])).toThrow(
    /webhooks\[0\]\.after: after goes with behaviour: duplicate or late/,
  );
  expect(refused([{ behaviour: 'shuffle' }])).toThrow(/webhooks\[0\]\.behaviour/);
});

/** What one send's notifications became, to a catcher and in the webhook log, with the rate options or a scenario. */
async function deliveriesOf(options: Record<string, unknown>, webhooks: unknown[]): Promise<unknown> {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator({ ...options, webhookUrl: catcher.url });
  open.push(emulator, catcher);
  if (webhooks.length > 0) emulator.scenario.set({ version: 1, webhooks } as never);
  const answer = await call(emulator, 'POST', '/v1/messages', { body: { recipient: ['27831234567'], message: 'Hi' } });
  await emulator.clock.advance('1m');
  const early = catcher.received.map((request) => request.body.status);
  await emulator.clock.advance('7h');
  await emulator.webhooks.settled();
  return {
    early,
    posted: catcher.received.map((request) => [
      request.body.status,
      request.headers['x-emulator-event-id'] !== undefined,
    ]),
    logged: emulator.webhooks
      .list({ message: answer.body.id as string })
      .items.map((event) => [event.status, event.state, event.behaviours, event.duplicateOf !== undefined]),
  };
}

test.each([
  ['webhookDuplicateRate', { webhookDuplicateRate: 1 }, { behaviour: 'duplicate' }],
  ['webhookReorderRate', { webhookReorderRate: 1 }, { behaviour: 'reorder' }],
  ['webhookDelayRate', { webhookDelayRate: 1, webhookDelay: '6h' }, { behaviour: 'late', after: '6h' }],
])(
  '%s at 1 is its delivery behaviour: the same posts, holds and marks as the scenario rule',
  async (_name, options, rule) => {
    const byRate = await deliveriesOf(options, []);
    const byRule = await deliveriesOf({}, [rule]);
    expect(byRate).toEqual(byRule);
    expect(byRate).not.toEqual(await deliveriesOf({}, []));
  },
);

/** An emulator on the main clock posting to a catcher, with `options` and the emulator's own behaviour rules. */
async function mainClock(options: Record<string, unknown>, webhooks: unknown[] = []) {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator({ ...options, webhookUrl: catcher.url });
  open.push(emulator, catcher);
  if (webhooks.length > 0) emulator.scenario.set({ version: 1, webhooks } as never);
  const send = async (): Promise<string> => {
    const answer = await call(emulator, 'POST', '/v1/messages', {
      body: { recipient: ['27831234567'], message: 'Hi' },
    });
    return answer.body.id as string;
  };
  const posted = () => catcher.received.map((request) => request.body.status as string);
  return { emulator, catcher, send, posted };
}

test.each([
  ['the reorder rate', { webhookReorderRate: 1 }, []],
  ['a reorder rule', {}, [{ behaviour: 'reorder' }]],
])(
  '%s never loses a held submitted notification: a later status that is not posted releases it',
  async (_name, options, webhooks) => {
    const { emulator, send, posted } = await mainClock({ ...options, notifyOn: ['submitted'] }, webhooks);
    const id = await send();
    await emulator.waitFor(id).toReach('delivered');
    await emulator.webhooks.settled();
    expect(posted()).toEqual(['submitted']);
    expect(emulator.webhooks.list({ message: id }).items.map((event) => [event.state, event.behaviours])).toEqual([
      ['delivered', ['reorder']],
    ]);
  },
);

test('a notification held by reorder ends failed, unposted and saying why, when the account loses its webhook URL before the next status', async () => {
  const { emulator, send, posted } = await mainClock({ webhookReorderRate: 1 });
  const id = await send();
  await emulator.clock.advance('1s');
  expect(posted()).toEqual([]);
  emulator.accounts.update(apiKey, { live: { webhookUrl: null } });
  await emulator.waitFor(id).toReach('delivered');
  await emulator.webhooks.settled();
  // Not left held: let go by the next status, and not posted to the URL the account no longer has.
  expect(posted()).toEqual([]);
  const [submitted] = emulator.webhooks.list({ message: id }).items;
  expect(submitted).toMatchObject({ status: 'submitted', state: 'failed' });
  expect(submitted?.attempts).toEqual([
    expect.objectContaining({ ok: false, durationMs: 0, error: expect.stringMatching(/webhook URL changed/) }),
  ]);
});

test('a notification held by reorder and by late stays delayed, unposted, after the reorder lets it go', async () => {
  const { emulator, send, posted } = await mainClock({}, [
    { behaviour: 'reorder' },
    { behaviour: 'late', after: '1h' },
  ]);
  const id = await send();
  await emulator.clock.advance('5s');
  const states = () =>
    emulator.webhooks.list({ message: id }).items.map((event) => [event.status, event.state, event.behaviours]);
  expect(states()).toEqual([
    ['submitted', 'delayed', ['reorder', 'late']],
    ['delivered', 'delayed', ['late']],
  ]);
  expect(posted()).toEqual([]);
  await emulator.clock.advance('1h');
  await emulator.webhooks.settled();
  expect(posted()).toEqual(['delivered', 'submitted']);
});

test('two holds of one notification both apply: the longest counts, a rule or the delay rate alike', async () => {
  const { emulator, send, posted } = await mainClock({ webhookDelayRate: 1, webhookDelay: '10m' }, [
    { behaviour: 'late', after: '1h', match: { status: 'delivered' } },
  ]);
  await send();
  await emulator.clock.advance('11m');
  expect(posted()).toEqual(['submitted']);
  await emulator.clock.advance('1h');
  expect(posted()).toEqual(['submitted', 'delivered']);
});

test('a rule matching status reply touches reply notifications, and one matching delivered does not', async () => {
  const { emulator, send, posted } = await mainClock({}, [
    { behaviour: 'duplicate', match: { status: 'reply' } },
    { behaviour: 'answer-ignored', match: { status: 'delivered' } },
  ]);
  const id = await send();
  await emulator.waitFor(id).toReach('delivered');
  await emulator.webhooks.settled();
  const before = posted().length;
  emulator.replies.inject(id, { text: 'Thanks' });
  await emulator.webhooks.settled();
  const replies = emulator.webhooks.list().items.filter((event) => event.kind === 'reply');
  expect(replies.map((event) => event.behaviours)).toEqual([[], ['duplicate']]);
  const delivered = emulator.webhooks.list({ message: id }).items.filter((event) => event.status === 'delivered');
  expect(delivered.map((event) => event.behaviours)).toEqual([['answer-ignored']]);
  expect(posted().length - before).toBe(2);
});
