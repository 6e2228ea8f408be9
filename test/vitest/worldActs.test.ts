import { describe, expect } from 'vitest';
import { createSmsTest } from '../../src/vitest/index.js';

const test = createSmsTest({
  emulator: { clock: 'manual', seed: 'world-acts' },
  account: { balance: 50, sandboxBalance: 7 },
});

test('sms.messageByReference finds the test message sent with that client_reference, and answers undefined for none', async ({
  sms,
}) => {
  await sms.client.send({ recipient: '27831234567', message: 'First', client_reference: 'booking-1' });
  const second = await sms.client.send({ recipient: '27831234567', message: 'Second', client_reference: 'booking-2' });
  expect(await sms.messageByReference('booking-2')).toMatchObject({ id: second.id, message: 'Second' });
  expect(await sms.messageByReference('booking-3')).toBeUndefined();
});

test("sms.webhookLog answers the emulator's log of the test account's webhooks, filtered by message and state", async ({
  sms,
}) => {
  const sent = await sms.client.send({ recipient: '27831234567', message: 'Logged' });
  const other = await sms.client.send({ recipient: '27831234568', message: 'Other' });
  await sms.waitFor(sent.id).toReach('delivered');
  const log = await sms.webhookLog({ message: sent.id });
  expect(log.map((event) => [event.account, event.messageId, event.status, event.state])).toEqual([
    [sms.account.apiKey, sent.id, 'submitted', 'delivered'],
    [sms.account.apiKey, sent.id, 'delivered', 'delivered'],
  ]);
  expect((await sms.webhookLog()).some((event) => event.messageId === other.id)).toBe(true);
  expect(await sms.webhookLog({ state: 'failed' })).toEqual([]);
});

test('sms.reply injects an inbound reply with the text first, from the first recipient unless another sender is given', async ({
  sms,
}) => {
  const sent = await sms.client.send({ recipient: ['27831234567', '27831234568'], message: 'Coming?' });
  await sms.waitFor(sent.id).toReach('delivered');
  expect(await sms.reply(sent.id, 'Yes')).toMatchObject({ message: 'Yes', in_reply_to: sent.id });
  await sms.reply(sent.id, 'No', '27831234568');
  const replies = await sms.emulator.replies.list({ account: sms.account.apiKey });
  expect(replies.items.map((reply) => [reply.message, reply.recipient, reply.in_reply_to])).toEqual([
    ['Yes', ['27831234567'], sent.id],
    ['No', ['27831234568'], sent.id],
  ]);
});

test("sms.optOut opts a number out of the test account in the test's environment unless told", async ({ sms }) => {
  expect(await sms.optOut('27831234567')).toEqual({
    account: sms.account.apiKey,
    environment: 'live',
    number: '27831234567',
    optedOut: true,
  });
  await sms.optOut('27831234568', 'sandbox');
  const account = await sms.emulator.accounts.get(sms.account.apiKey);
  expect([account.live.optOuts, account.sandbox.optOuts]).toEqual([['27831234567'], ['27831234568']]);
});

test("sms.balance answers the test account's credits in the test's environment unless told", async ({ sms }) => {
  await sms.client.send({ recipient: '27831234567', message: 'One credit' });
  expect(await sms.balance()).toBe(49);
  expect(await sms.balance('sandbox')).toBe(7);
});

test("sms.timelineHtml answers the HTML timeline of the test account's own messages", async ({ sms }) => {
  const sent = await sms.client.send({ recipient: '27831234567', message: 'On the timeline' });
  const html = await sms.timelineHtml();
  expect(html).toMatch(new RegExp(`<html[\\s\\S]*${sent.id}`));
  expect(html).toContain(sms.account.apiKey);
});

describe('in a sandbox world', () => {
  test.override({ smsWorld: { environment: 'sandbox' } });

  test('sms.balance and sms.optOut default to the environment of the test world', async ({ sms }) => {
    expect(await sms.balance()).toBe(7);
    expect((await sms.optOut('27831234567')).environment).toBe('sandbox');
  });
});
