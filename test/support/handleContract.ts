/** The handle contract: one suite of behaviour that the in-process handle and the remote one (over HTTP) must both pass. */

import { expect, test } from 'vitest';
import { createClient } from '../../src/client/index.js';
import type { Emulator } from '../../src/index.js';
import type { RemoteEmulator } from '../../src/testing/connect.js';

/** Either handle, as a test meets it: every answer is awaited, so one test fits both. */
export type AnyHandle = Emulator | RemoteEmulator;

/** Registers the contract tests; `handle()` gives the handle under test, fresh from a reset, on a manual clock. */
export function handleContract(handle: () => AnyHandle): void {
  const client = (emulator: AnyHandle, apiKey = 'pk_test_sms_emulator', signingSecret = 'sk_test_sms_emulator') =>
    createClient({ baseUrl: (emulator.urls as { live: string }).live, apiKey, signingSecret });

  test('the clock reads, advances and tells its time as a Date', async () => {
    const emulator = handle();
    const before = await emulator.clock.state();
    const after = await emulator.clock.advance('90s');
    expect(after.now - before.now).toBe(90_000);
    expect(await emulator.clock.now()).toEqual(new Date(after.now));
  });

  test('accounts are created, listed in the one list shape, changed and deleted', async () => {
    const emulator = handle();
    await emulator.accounts.create({ apiKey: 'pk_contract', balance: 5 });
    const page = await emulator.accounts.list({ limit: 1, page: 2 });
    expect(page).toMatchObject({ total: 2, page: 2, limit: 1, items: [{ apiKey: 'pk_contract' }] });
    expect((await emulator.accounts.update('pk_contract', { live: { addBalance: 3 } })).live.balance).toBe(8);
    await emulator.accounts.delete('pk_contract');
    await expect(Promise.resolve().then(() => emulator.accounts.get('pk_contract'))).rejects.toMatchObject({ code: 'CONTROL_NOT_FOUND', status: 404 });
  });

  test('a sent message is followed to delivered with waitFor, its webhooks logged', async () => {
    const emulator = handle();
    const sent = await client(emulator).send({ recipient: '27831234567', message: 'Contract' });
    const delivered = await emulator.waitFor(sent.id).toReach('delivered', { within: '1m' });
    expect(delivered.legs[0]?.history.map((change) => change.status)).toEqual(['pending', 'submitted', 'delivered']);
    expect((await emulator.messages.list({ status: 'delivered' })).items.map((message) => message.id)).toContain(sent.id);
    expect((await emulator.webhooks.list({ message: sent.id })).total).toBe(2);
  });

  test('waitFor fails with the history when the status is not reached in time', async () => {
    const emulator = handle();
    const sent = await client(emulator).send({ recipient: '27830000006', message: 'Slow' });
    await expect(emulator.waitFor(sent.id).toReach('delivered', { within: '1m' })).rejects.toThrow(/did not reach "delivered": it is "submitted" after 1m/);
  });

  test('a reply is injected and listed', async () => {
    const emulator = handle();
    const sent = await client(emulator).send({ recipient: '27831234567', message: 'Question?' });
    await emulator.waitFor(sent.id).toReach('delivered');
    const reply = await emulator.replies.inject(sent.id, { text: 'Yes' });
    expect(reply).toMatchObject({ type: 'sms-reply', message: 'Yes', in_reply_to: sent.id });
    expect((await emulator.replies.list()).items.map((item) => item.id)).toContain(reply.id);
  });

  test('reset goes back to the start state; a snapshot restores what it saw', async () => {
    const emulator = handle();
    await client(emulator).send({ recipient: '27831234567', message: 'Kept' });
    const snapshot = await emulator.snapshot();
    await emulator.reset();
    expect((await emulator.messages.list()).total).toBe(0);
    await emulator.restore(snapshot);
    expect((await emulator.messages.list()).items.map((message) => message.message)).toEqual(['Kept']);
  });

  test("an account's own scenario decides its legs only, is read back, and clearing it hands them back", async () => {
    const emulator = handle();
    await emulator.accounts.create({ apiKey: 'pk_contract_own', signingSecret: 'sk_contract_own' });
    const set = await emulator.accounts.setScenario('pk_contract_own', 'rules:\n  - { outcome: undelivered }\n');
    expect(set.rules).toEqual([{ match: {}, outcome: 'undelivered' }]);
    expect(await emulator.accounts.getScenario('pk_contract_own')).toEqual(set);
    const own = await client(emulator, 'pk_contract_own', 'sk_contract_own').send({ recipient: '27831234567', message: 'Own' });
    const shared = await client(emulator).send({ recipient: '27831234567', message: 'Shared' });
    expect((await emulator.waitFor(own.id).toReach('undelivered', { within: '1m' })).status).toBe('undelivered');
    expect((await emulator.waitFor(shared.id).toReach('delivered', { within: '1m' })).status).toBe('delivered');
    await emulator.accounts.clearScenario('pk_contract_own');
    expect((await emulator.accounts.getScenario('pk_contract_own')).rules).toEqual([]);
    const after = await client(emulator, 'pk_contract_own', 'sk_contract_own').send({ recipient: '27831234567', message: 'Again' });
    expect((await emulator.waitFor(after.id).toReach('delivered', { within: '1m' })).status).toBe('delivered');
  });

  test('bad input is refused with a catalogued error and changes nothing', async () => {
    const emulator = handle();
    await expect(Promise.resolve().then(() => emulator.accounts.create({ apiKey: 'no-prefix' }))).rejects.toMatchObject({ code: 'CONTROL_INVALID_REQUEST' });
    expect((await emulator.accounts.list()).total).toBe(1);
  });
}
