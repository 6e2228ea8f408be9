/** The handle contract: one suite of behaviour that the in-process handle and the remote one (over HTTP) must both pass. */

import { expect, test } from 'vitest';
import { createClient } from '../../src/client/index.js';
import type { Emulator } from '../../src/index.js';
import type { RemoteEmulator } from '../../src/testing/connect.js';

/** Either handle, as a test meets it: every answer is awaited, so one test fits both. */
export type AnyHandle = Emulator | RemoteEmulator;

/**
 * Registers the contract tests; `handle()` gives the handle under test, fresh from a reset, on a manual clock. The API
 * calls go over the handle's socket (the node listener, whose fast lane takes them) unless `fetch` sends them another way.
 */
export function handleContract(handle: () => AnyHandle, fetch?: (request: Request) => Promise<Response>): void {
  const client = (emulator: AnyHandle, apiKey = 'pk_test_sms_emulator', signingSecret = 'sk_test_sms_emulator') =>
    createClient({
      baseUrl: (emulator.urls as { live: string }).live,
      apiKey,
      signingSecret,
      ...(fetch ? { fetch } : {}),
    });

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
    await expect(Promise.resolve().then(() => emulator.accounts.get('pk_contract'))).rejects.toMatchObject({
      code: 'CONTROL_NOT_FOUND',
      status: 404,
    });
  });

  test('a sent message is followed to delivered with waitFor, its webhooks logged', async () => {
    const emulator = handle();
    const sent = await client(emulator).send({ recipient: '27831234567', message: 'Contract' });
    const delivered = await emulator.waitFor(sent.id).toReach('delivered', { within: '1m' });
    expect(delivered.legs[0]?.history.map((change) => change.status)).toEqual(['pending', 'submitted', 'delivered']);
    expect((await emulator.messages.list({ status: 'delivered' })).items.map((message) => message.id)).toContain(
      sent.id,
    );
    expect((await emulator.webhooks.list({ message: sent.id })).total).toBe(2);
  });

  test('waitFor fails with the history when the status is not reached in time', async () => {
    const emulator = handle();
    const sent = await client(emulator).send({ recipient: '27830000006', message: 'Slow' });
    await expect(emulator.waitFor(sent.id).toReach('delivered', { within: '1m' })).rejects.toThrow(
      /did not reach "delivered": it is "submitted" after 1m/,
    );
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
    const own = await client(emulator, 'pk_contract_own', 'sk_contract_own').send({
      recipient: '27831234567',
      message: 'Own',
    });
    const shared = await client(emulator).send({ recipient: '27831234567', message: 'Shared' });
    expect((await emulator.waitFor(own.id).toReach('undelivered', { within: '1m' })).status).toBe('undelivered');
    expect((await emulator.waitFor(shared.id).toReach('delivered', { within: '1m' })).status).toBe('delivered');
    await emulator.accounts.clearScenario('pk_contract_own');
    expect((await emulator.accounts.getScenario('pk_contract_own')).rules).toEqual([]);
    const after = await client(emulator, 'pk_contract_own', 'sk_contract_own').send({
      recipient: '27831234567',
      message: 'Again',
    });
    expect((await emulator.waitFor(after.id).toReach('delivered', { within: '1m' })).status).toBe('delivered');
  });

  /** An account on a fresh test clock at `startTime`, and a client with its key. */
  const onTestClock = async (emulator: AnyHandle, apiKey: string, startTime: string) => {
    const clock = await emulator.clocks.create({ startTime, name: apiKey });
    await emulator.accounts.create({ apiKey, clock: clock.id });
    return { clock, sms: client(emulator, apiKey, `sk_test_${apiKey.slice(3)}`) };
  };
  const refusal = (call: () => unknown) => Promise.resolve().then(call);

  test('test clocks are created frozen, listed, read, moved apart from the main clock and deleted', async () => {
    const emulator = handle();
    const main = await emulator.clock.state();
    const unnamed = await emulator.clocks.create();
    expect(unnamed).toMatchObject({
      name: null,
      now: main.now,
      mode: 'manual',
      pendingTasks: 0,
      incidents: [],
      accounts: [],
    });
    expect(unnamed.id).toMatch(/^clock_[0-9a-f]{16}$/);
    const named = await emulator.clocks.create({ startTime: '2030-01-01T00:00:00Z', name: 'booking' });
    expect(named).toMatchObject({ name: 'booking', now: Date.parse('2030-01-01T00:00:00Z') });
    expect((await emulator.clocks.list()).items.map((clock) => clock.id)).toEqual([unnamed.id, named.id]);
    expect((await emulator.clocks.advance(named.id, '90s')).now).toBe(Date.parse('2030-01-01T00:01:30Z'));
    expect(await emulator.clocks.now(named.id)).toEqual(new Date('2030-01-01T00:01:30Z'));
    expect((await emulator.clocks.set(named.id, '2030-01-02T00:00:00Z')).now).toBe(Date.parse('2030-01-02T00:00:00Z'));
    // Neither moved the main clock or the other test clock, and moving the main clock moves no test clock.
    expect((await emulator.clock.state()).now).toBe(main.now);
    await emulator.clock.advance('1h');
    expect((await emulator.clocks.get(unnamed.id)).now).toBe(main.now);
    expect((await emulator.clocks.get(named.id)).now).toBe(Date.parse('2030-01-02T00:00:00Z'));
    await emulator.clocks.delete(unnamed.id);
    expect((await emulator.clocks.list()).items.map((clock) => clock.id)).toEqual([named.id]);
    await expect(refusal(() => emulator.clocks.get(unnamed.id))).rejects.toMatchObject({
      code: 'CONTROL_NOT_FOUND',
      status: 404,
    });
    await expect(refusal(() => emulator.clocks.advance('clock_missing', '1m'))).rejects.toMatchObject({
      code: 'CONTROL_NOT_FOUND',
      status: 404,
    });
  });

  test('a test clock is always manual: mode, speed, going backwards and bad input are refused and change nothing', async () => {
    const emulator = handle();
    const clock = await emulator.clocks.create({ startTime: '2030-01-01T00:00:00Z' });
    await expect(refusal(() => emulator.clocks.move(clock.id, { mode: 'realtime' }))).rejects.toMatchObject({
      code: 'CONTROL_INVALID_REQUEST',
      status: 400,
    });
    await expect(refusal(() => emulator.clocks.move(clock.id, { speed: 60, advance: '1m' }))).rejects.toMatchObject({
      code: 'CONTROL_INVALID_REQUEST',
    });
    await expect(refusal(() => emulator.clocks.set(clock.id, '2029-12-31T00:00:00Z'))).rejects.toMatchObject({
      code: 'CLOCK_BACKWARDS',
    });
    await expect(refusal(() => emulator.clocks.create({ startTime: 'yesterday' }))).rejects.toMatchObject({
      code: 'CONTROL_INVALID_REQUEST',
    });
    await expect(refusal(() => emulator.clocks.create({ name: '' }))).rejects.toMatchObject({
      code: 'CONTROL_INVALID_REQUEST',
    });
    await expect(
      refusal(() => emulator.accounts.create({ apiKey: 'pk_nowhere', clock: 'clock_missing' })),
    ).rejects.toMatchObject({
      code: 'CONTROL_NOT_FOUND',
    });
    expect(await emulator.clocks.get(clock.id)).toMatchObject({
      mode: 'manual',
      speed: 1,
      now: Date.parse('2030-01-01T00:00:00Z'),
    });
    expect((await emulator.clocks.list()).total).toBe(1);
    expect((await emulator.accounts.list()).total).toBe(1);
  });

  test("two accounts on two test clocks: moving one never moves the other's messages or webhooks", async () => {
    const emulator = handle();
    const a = await onTestClock(emulator, 'pk_clock_a', '2030-01-01T00:00:00Z');
    const b = await onTestClock(emulator, 'pk_clock_b', '2031-06-01T12:00:00Z');
    const fromA = await a.sms.send({ recipient: '27831234567', message: 'A' });
    const fromB = await b.sms.send({ recipient: '27831234567', message: 'B' });
    // Each account's API tells its own clock's time (both environments alike).
    expect(fromA.creation_date).toBe('2030-01-01T02:00:00+02:00');
    expect(fromB.creation_date).toBe('2031-06-01T14:00:00+02:00');
    expect((await emulator.accounts.get('pk_clock_a')).clock).toBe(a.clock.id);
    expect((await emulator.accounts.get('pk_test_sms_emulator')).clock).toBeNull();
    expect((await emulator.clocks.get(a.clock.id)).accounts).toEqual(['pk_clock_a']);

    const moved = await emulator.clocks.runUntilIdle(a.clock.id);
    expect(moved.run).toMatchObject({ idle: true });
    expect((await emulator.messages.get(fromA.id)).status).toBe('delivered');
    expect((await emulator.webhooks.list({ account: 'pk_clock_a' })).total).toBe(2);
    expect((await emulator.messages.get(fromB.id)).status).toBe('pending');
    expect((await emulator.webhooks.list({ account: 'pk_clock_b' })).total).toBe(0);
    expect((await emulator.clocks.get(b.clock.id)).now).toBe(Date.parse('2031-06-01T12:00:00Z'));
    // The main clock's moves leave test clock accounts alone too.
    await emulator.clock.advance('2d');
    expect((await emulator.messages.get(fromB.id)).status).toBe('pending');

    // A delivery's webhooks are tried, and logged, at the time of the account's clock.
    const [first] = (await emulator.webhooks.list({ message: fromA.id })).items;
    expect(first?.createdAt.startsWith('2030-01-01')).toBe(true);
    expect(first?.attempts).toEqual([]);
    // waitFor moves the clock of the message's account only.
    const mainBefore = await emulator.clock.state();
    const delivered = await emulator.waitFor(fromB.id).toReach('delivered', { within: '1m' });
    expect(delivered.delivery_date?.startsWith('2031-06-01T14:00')).toBe(true);
    expect((await emulator.clock.state()).now).toBe(mainBefore.now);
    expect((await emulator.clocks.get(a.clock.id)).now).toBe(moved.now);
  });

  test('the 15-minute to 7-day schedule window and DATE_TIME_INVALID follow the account clock', async () => {
    const emulator = handle();
    const { clock, sms } = await onTestClock(emulator, 'pk_clock_schedule', '2030-01-01T00:00:00Z');
    const scheduled = await sms.schedule({
      recipient: '27831234567',
      message: 'Later',
      schedule: '2030-01-01T02:20+02:00',
    });
    expect(scheduled).toMatchObject({ status: 'scheduled', creation_date: '2030-01-01T02:00:00+02:00' });
    // 10 minutes ahead of the test clock is too soon; 8 days ahead is too far; the main clock's accounts cannot reach 2030.
    await expect(
      sms.schedule({ recipient: '27831234567', message: 'Soon', schedule: '2030-01-01T02:10+02:00' }),
    ).rejects.toMatchObject({
      code: 'DATE_TIME_INVALID',
    });
    await expect(
      sms.schedule({ recipient: '27831234567', message: 'Far', schedule: '2030-01-09T02:10+02:00' }),
    ).rejects.toMatchObject({
      code: 'DATE_TIME_INVALID',
    });
    await expect(
      client(emulator).schedule({ recipient: '27831234567', message: 'Main', schedule: '2030-01-01T02:20+02:00' }),
    ).rejects.toMatchObject({
      code: 'DATE_TIME_INVALID',
    });
    // The scheduled send goes out when the test clock reaches it, not when the main clock moves.
    await emulator.clock.advance('7d');
    expect((await emulator.messages.get(scheduled.id)).status).toBe('scheduled');
    await emulator.clocks.advance(clock.id, '20m');
    expect((await emulator.messages.get(scheduled.id)).status).toBe('pending');
  });

  test('deleting a test clock deletes its accounts and their messages', async () => {
    const emulator = handle();
    const { clock, sms } = await onTestClock(emulator, 'pk_clock_gone', '2030-01-01T00:00:00Z');
    await sms.send({ recipient: '27831234567', message: 'Gone' });
    await client(emulator).send({ recipient: '27831234567', message: 'Stays' });
    await emulator.clocks.delete(clock.id);
    await expect(refusal(() => emulator.accounts.get('pk_clock_gone'))).rejects.toMatchObject({
      code: 'CONTROL_NOT_FOUND',
    });
    expect((await emulator.messages.list()).items.map((message) => message.message)).toEqual(['Stays']);
    await expect(sms.balance()).rejects.toMatchObject({ code: 'INVALID_API_KEY' });
  });

  test('reset removes runtime test clocks; a snapshot carries them, their accounts and pending work', async () => {
    const emulator = handle();
    const { clock, sms } = await onTestClock(emulator, 'pk_clock_saved', '2030-01-01T00:00:00Z');
    await emulator.clocks.advance(clock.id, '5m');
    const sent = await sms.send({ recipient: '27831234567', message: 'Saved' });
    const snapshot = await emulator.snapshot();
    await emulator.reset();
    expect((await emulator.clocks.list()).total).toBe(0);
    expect((await emulator.accounts.list()).total).toBe(1);
    await emulator.restore(snapshot);
    expect(await emulator.clocks.get(clock.id)).toMatchObject({
      name: 'pk_clock_saved',
      now: Date.parse('2030-01-01T00:05:00Z'),
      accounts: ['pk_clock_saved'],
    });
    // A per-account reset keeps the account on its clock.
    await emulator.reset({ account: 'pk_clock_saved' });
    expect((await emulator.accounts.get('pk_clock_saved')).clock).toBe(clock.id);
    await emulator.restore(snapshot);
    expect((await emulator.messages.get(sent.id)).status).not.toBe('delivered');
    await emulator.clocks.runUntilIdle(clock.id);
    expect((await emulator.messages.get(sent.id)).status).toBe('delivered');
  });

  test('bad input is refused with a catalogued error and changes nothing', async () => {
    const emulator = handle();
    await expect(Promise.resolve().then(() => emulator.accounts.create({ apiKey: 'no-prefix' }))).rejects.toMatchObject(
      { code: 'CONTROL_INVALID_REQUEST' },
    );
    expect((await emulator.accounts.list()).total).toBe(1);
  });
}
