/** One contract, two handles: the in-process handle and the remote handle over HTTP behave the same, member by member. */

import { expect, test } from 'vitest';
import type { ControlHandle, HandleMode } from '../../src/control/handle.js';
import { remoteHandle } from '../../src/control/remoteHandle.js';
import type { Emulator } from '../../src/index.js';
import { apiKey, call, fetchTransport, makeEmulator, send } from '../support/api.js';

const handles: [string, (emulator: Emulator) => ControlHandle<HandleMode>][] = [
  ['in-process', (emulator) => emulator],
  ['remote', (emulator) => remoteHandle(fetchTransport(emulator))],
];

for (const [kind, handleOf] of handles) {
  test(`${kind}: lists answer { items, total, page, limit }, paged by page and limit`, async () => {
    const emulator = makeEmulator();
    const handle = handleOf(emulator);
    for (const key of ['pk_a', 'pk_b', 'pk_c']) await handle.accounts.create({ apiKey: key });
    expect(await handle.accounts.list()).toMatchObject({ total: 4, page: 1, limit: 100 });
    const second = await handle.accounts.list({ page: 2, limit: 2 });
    expect(second).toMatchObject({ total: 4, page: 2, limit: 2 });
    expect(second.items.map((account) => account.apiKey)).toEqual(['pk_b', 'pk_c']);
    expect((await handle.accounts.list({ page: 9 })).items).toEqual([]);
    await expect(async () => handle.accounts.list({ limit: 1001 })).rejects.toThrow(/CONTROL_INVALID_REQUEST.*limit/);
    await expect(async () => handle.messages.list({ colour: 'red' } as never)).rejects.toThrow(/colour/);
  });

  test(`${kind}: accounts, messages, replies, opt-outs, chaos, sign and reset work through the handle`, async () => {
    const emulator = makeEmulator();
    const handle = handleOf(emulator);
    expect(await handle.health()).toEqual({ status: 'ok' });
    await handle.accounts.create({ apiKey: 'pk_team', balance: 5 });
    expect((await handle.accounts.update('pk_team', { live: { addBalance: 2 } })).live.balance).toBe(7);
    expect((await handle.accounts.get('pk_team')).live.balance).toBe(7);
    const sent = await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
    expect((await handle.clock.advance('5s')).time).toBe('2026-11-21T12:00:05+02:00');
    expect((await handle.messages.get(sent.id)).status).toBe('delivered');
    expect((await handle.messages.list({ status: 'delivered' })).items.map((message) => message.id)).toEqual([sent.id]);
    const reply = await handle.replies.inject(sent.id, { text: 'Thanks' });
    expect(reply).toMatchObject({ type: 'sms-reply', message: 'Thanks', in_reply_to: sent.id });
    expect((await handle.replies.list()).total).toBe(1);
    expect(await handle.optOuts.add('27830000001', { environment: 'sandbox' })).toEqual({
      account: apiKey,
      environment: 'sandbox',
      number: '27830000001',
      optedOut: true,
    });
    expect((await handle.optOuts.list({ environment: 'sandbox' })).items).toEqual(['27830000001']);
    expect((await handle.optOuts.remove('27830000001', { environment: 'sandbox' })).optedOut).toBe(false);
    expect(await handle.webhooks.setChaos({ delayRate: 0.5, delay: '2s' })).toEqual({
      duplicateRate: 0,
      delayRate: 0.5,
      reorderRate: 0,
      delay: 2000,
    });
    expect(await handle.webhooks.chaos()).toMatchObject({ delay: 2000 });
    expect(await handle.webhooks.setChaos({ delay: 3000 })).toMatchObject({ delayRate: 0.5, delay: 3000 });
    expect((await handle.sign({ message: 'Hi' })).string_to_sign).toBe('message=Hi');
    expect(await handle.webhooks.settled()).toEqual({ status: 'settled' });
    expect(await handle.reset()).toEqual({ status: 'reset' });
    expect((await handle.accounts.list()).items.map((account) => account.apiKey)).toEqual([apiKey]);
    await handle.accounts.create({ apiKey: 'pk_gone' });
    expect(await handle.accounts.delete('pk_gone')).toBeUndefined();
  });

  test(`${kind}: a snapshot taken through the handle restores through it; the scenario is read and replaced`, async () => {
    const emulator = makeEmulator();
    const handle = handleOf(emulator);
    await send(emulator, { recipient: ['27831234567'], message: 'Keep' });
    const snapshot = await handle.snapshot();
    await handle.reset();
    expect(await handle.restore(snapshot)).toEqual({ status: 'restored' });
    expect((await handle.messages.list()).total).toBe(1);
    const scenario = await handle.scenario.set('version: 1\ndescription: from the handle\n');
    expect(scenario.description).toBe('from the handle');
    expect((await handle.scenario.get()).description).toBe('from the handle');
  });

  test(`${kind}: the request journal is found and counted through the handle`, async () => {
    const emulator = makeEmulator();
    const handle = handleOf(emulator);
    await call(emulator, 'GET', '/v1/messages/balance');
    await call(emulator, 'GET', '/v1/messages/balance', { key: 'pk_nobody' });
    expect(await handle.requests.count()).toBe(2);
    expect(await handle.requests.count({ status: 401 })).toBe(1);
    const found = await handle.requests.find({ code: 'INVALID_API_KEY' });
    expect(found).toMatchObject({ total: 1, page: 1, limit: 100, items: [{ account: 'pk_nobody', status: 401 }] });
  });
}
