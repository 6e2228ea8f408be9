import { checkReceiver } from 'sms-emulator';
import { createSmsTest } from 'sms-emulator/vitest';
import { type DeliveryReceiver, firstDraftReceiver, fixedReceiver } from '../src/deliveryReceiver.js';
import { serveReceiver } from '../src/serveReceiver.js';

/** Each test's webhooks reach the receiver under test through the fixture's catcher, answered with its status. */
const test = createSmsTest().extend<{ draft: DeliveryReceiver; fixed: DeliveryReceiver }>({
  draft: async ({}, use) => use(firstDraftReceiver()), // eslint-disable-line no-empty-pattern
  fixed: async ({}, use) => use(fixedReceiver()), // eslint-disable-line no-empty-pattern
});

test.concurrent(
  'a duplicated receipt: the first draft counts the message twice, the fixed receiver once',
  async ({ sms, draft, fixed, expect }) => {
    await sms.scenario.set({ webhooks: [{ behaviour: 'duplicate', match: { status: 'delivered' } }] });
    sms.catcher.respondWith((request) => Math.max(draft.handle(request.body), fixed.handle(request.body)));
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Your order has shipped' });
    await sms.waitFor(sent.id).toReach('delivered');
    expect(draft.deliveredCount()).toBe(2); // bug 2, found
    expect(fixed.deliveredCount()).toBe(1);
  },
);

test.concurrent(
  'a receipt before its submitted: the first draft answers 500 until the gateway gives up',
  async ({ sms, expect }) => {
    const draft = firstDraftReceiver();
    await sms.scenario.set({ webhooks: [{ behaviour: 'reorder' }] });
    sms.catcher.respondWith((request) => draft.handle(request.body));
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Your code is 4821' });
    // The wait itself fails: the receiver refused the delivered notification at every try (bug 1, found).
    await expect(sms.waitFor(sent.id).toReach('delivered')).rejects.toThrow(
      /CONTROL_WEBHOOK_REFUSED: .* refused its notification at every try, and no retry is left: 27831234567 "delivered" .*: 500/,
    );
    const delivered = (await sms.emulator.webhooks.list({ message: sent.id })).items.find(
      (event) => event.status === 'delivered',
    );
    expect(delivered?.state).toBe('failed'); // 4 tries, all 500
    expect(draft.statusOf(sent.id)).toBe('submitted');
  },
);

test.concurrent(
  'the fixed receiver takes a receipt before its submitted and keeps the later status',
  async ({ sms, expect }) => {
    const fixed = fixedReceiver();
    await sms.scenario.set({ webhooks: [{ behaviour: 'reorder' }] });
    sms.catcher.respondWith((request) => fixed.handle(request.body));
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Your code is 4821' });
    await sms.waitFor(sent.id).toReach('delivered');
    const events = (await sms.emulator.webhooks.list({ message: sent.id })).items;
    expect(events.map((event) => event.state)).toEqual(['delivered', 'delivered']);
    expect(fixed.statusOf(sent.id)).toBe('delivered');
  },
);

test('check-receiver: the first draft fails out-of-order and orphan, and with the state hook duplicate too; the fixed receiver passes every check', async ({
  expect,
}) => {
  const draft = await serveReceiver(firstDraftReceiver());
  const fixed = await serveReceiver(fixedReceiver());
  try {
    // On the answers alone, bug 2 (a duplicate processed twice) is invisible: a 200 looks the same. The report says so.
    const draftReport = await checkReceiver(draft.url, { timeout: '2s' });
    expect(draftReport.checks.filter((check) => !check.passed).map((check) => check.name)).toEqual([
      'out-of-order',
      'orphan',
    ]);
    expect(draftReport.unseen.join('\n')).toMatch(
      /whether a re-sent notification \(same event id\) was processed twice/,
    );
    // With the state hook, check-receiver reads what the receiver holds after each sequence, and finds bug 2 too.
    // (A seed of its own: the same seed sends the same message ids, which the draft already holds from the run above.)
    const seeingDraft = await checkReceiver(draft.url, { timeout: '2s', state: draft.state, seed: 'with state' });
    expect(seeingDraft.checks.filter((check) => !check.passed).map((check) => check.name)).toEqual([
      'duplicate',
      'out-of-order',
      'orphan',
    ]);
    expect(seeingDraft.checks.find((check) => check.name === 'duplicate')?.reason).toMatch(
      /counts 3 notifications, expected 2: it processed the re-sent notification a second time/,
    );
    const fixedReport = await checkReceiver(fixed.url, { timeout: '2s', state: fixed.state });
    expect(fixedReport.checks.filter((check) => !check.passed)).toEqual([]);
    expect(fixedReport.unseen).toEqual([]);
  } finally {
    await draft.close();
    await fixed.close();
  }
});
