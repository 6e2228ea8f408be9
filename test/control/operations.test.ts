/** The control operations table's machinery: input parsed once (by runOperation, from the table), webhooks waited for once, opt-outs announced. */

import { afterEach, expect, test, vi } from 'vitest';
import { isRoute, operationList } from '../../src/control/operationList.js';
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import { createWebhookCatcher } from '../../src/index.js';
import { control, makeEmulator, send } from '../support/api.js';

afterEach(() => vi.restoreAllMocks());

test('every operation whose body or query carries input declares it in the table, with a name its refusals use', () => {
  for (const [id, op] of operationList()) {
    if (!isRoute(op)) continue;
    const carries = op.args.some((spec) => spec.in === 'body' || (spec.in === 'query' && spec.name === undefined));
    // A snapshot to restore is checked by its importer (the snapshot format), and the fields to sign are any object.
    if (!carries || id === 'restore' || id === 'sign') continue;
    expect(op.input, id).toBeDefined();
    expect(op.inputName, id).toMatch(/^[a-z -]+$/);
  }
});

test('the in-process handle and the HTTP route refuse bad input alike, before anything runs, naming the input', async () => {
  const emulator = makeEmulator();
  const http = await control(emulator, 'POST', '/accounts', { apiKey: 'pk_new', balance: -1 });
  expect(http.status).toBe(400);
  expect(http.body.description).toMatch(/^Invalid account: /);
  expect(() => emulator.accounts.create({ apiKey: 'pk_new', balance: -1 })).toThrow(http.body.description);
  expect(emulator.accounts.list().total).toBe(1);
  // A list's paging is parsed with its filter, in the same one pass.
  const listed = await control(emulator, 'GET', '/messages?limit=0&environment=nope');
  expect(listed.body.description).toMatch(
    /^Invalid message filter: .*limit.*environment|^Invalid message filter: .*environment.*limit/,
  );
});

test('a clock move waits for the webhook tries it caused once, and answers the clock as it is after them', async () => {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator({ webhookUrl: catcher.url });
  try {
    await send(emulator, { recipient: ['27831234567'], message: 'Waited once' });
    const waits = vi.spyOn(WebhookDispatcher.prototype, 'settled');
    const moved = await emulator.clock.advance('1m');
    expect(waits).toHaveBeenCalledTimes(1);
    expect(catcher.received.length).toBeGreaterThan(0);
    expect(moved.pendingTasks).toBe(emulator.clock.state().pendingTasks);
  } finally {
    await emulator.close();
    await catcher.close();
  }
});

test('forcing a status waits for its webhooks once and answers the message after them', async () => {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator({ webhookUrl: catcher.url });
  try {
    const sent = await send(emulator, { recipient: ['27831234567'], message: 'Forced' });
    const waits = vi.spyOn(WebhookDispatcher.prototype, 'settled');
    const forced = await emulator.messages.forceStatus(sent.id, { status: 'delivered' });
    expect(waits).toHaveBeenCalledTimes(1);
    expect(forced.status).toBe('delivered');
    expect(catcher.received.some((hook) => hook.body.status === 'delivered')).toBe(true);
  } finally {
    await emulator.close();
    await catcher.close();
  }
});

test('every opt-out change is announced as account.changed: the control API, and a STOP or START reply', async () => {
  const emulator = makeEmulator();
  const changed: string[] = [];
  emulator.on('account.changed', ({ apiKey }) => changed.push(apiKey));
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'Reply STOP' });
  emulator.replies.inject(sent.id, { text: 'STOP' });
  expect(emulator.optOuts.list().items).toEqual(['27831234567']);
  expect(changed).toHaveLength(1);
  emulator.replies.inject(sent.id, { text: 'START' });
  expect(emulator.optOuts.list().items).toEqual([]);
  expect(changed).toHaveLength(2);
  emulator.optOuts.add('27830000001');
  expect(changed).toHaveLength(3);
});
