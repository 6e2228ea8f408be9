import { afterEach, expect, test, vi } from 'vitest';
import { apiKey, balance, call, makeEmulator, scheduleIn, send } from '../support/api.js';
import { byLastDigit, steps } from '../support/deciders.js';
import { canTransition, transitions } from '../../src/domain/message.js';

afterEach(() => {
  vi.useRealTimers();
});

const control = (emulator: ReturnType<typeof makeEmulator>, method: string, path: string, body?: unknown) =>
  call(emulator, method, `/_emulator${path}`, {
    raw: body === undefined ? undefined : JSON.stringify(body),
    key: false,
  });

test('a message scheduled for +20 minutes is charged and sent at its time, then delivered 5 seconds later', async () => {
  const emulator = makeEmulator();
  const message = await send(emulator, { recipient: ['27831234567'], message: 'See you', schedule: scheduleIn(20) });
  expect((await control(emulator, 'POST', '/clock', { advance: '19m' })).status).toBe(200);
  expect((await call(emulator, 'GET', `/v1/messages/${message.id}`)).body).toMatchObject({
    status: 'scheduled',
    credit: 0,
  });
  await control(emulator, 'POST', '/clock', { advance: '1m' });
  const sent = (await call(emulator, 'GET', `/v1/messages/${message.id}`)).body;
  expect(sent).toMatchObject({ status: 'pending', credit: 1, delivery_date: null });
  expect(sent._links).toEqual({ self: expect.any(Object) });
  expect(await balance(emulator)).toBe(999);
  await control(emulator, 'POST', '/clock', { advance: '1s' });
  expect((await call(emulator, 'GET', `/v1/messages/${message.id}`)).body.status).toBe('submitted');
  await control(emulator, 'POST', '/clock', { advance: '4s' });
  expect((await call(emulator, 'GET', `/v1/messages/${message.id}`)).body).toMatchObject({
    status: 'delivered',
    delivery_date: '2026-11-21T12:20:05+02:00',
  });
});

test('a scheduled message becomes failed when the balance is short at its time, and is not charged', async () => {
  const emulator = makeEmulator({ balance: 2 });
  const message = await send(emulator, {
    recipient: ['27831234567', '27831234568'],
    message: 'Later',
    schedule: scheduleIn(30),
  });
  emulator.accounts.update(apiKey, { live: { balance: 1 } });
  await emulator.clock.advance('30m');
  const failed = emulator.messages.get(message.id);
  expect(failed.status).toBe('failed');
  expect(failed.credit).toBe(0);
  expect(failed.legs.map((leg) => leg.status)).toEqual(['failed', 'failed']);
  expect(failed.history.map((change) => change.status)).toEqual(['scheduled', 'failed']);
  expect(await balance(emulator)).toBe(1);
  expect((await call(emulator, 'GET', '/v1/messages?status=failed')).body.total_items).toBe(1);
});

test('the default timeline takes every leg pending → submitted (1 s) → delivered (4 s more), with history', async () => {
  const emulator = makeEmulator();
  const message = await send(emulator, { recipient: ['27831234567', '27831234568'], message: 'Now' });
  await emulator.clock.advance('5s');
  const view = emulator.messages.get(message.id);
  expect(view.status).toBe('delivered');
  expect(view.history).toEqual([
    { status: 'pending', at: '2026-11-21T12:00:00+02:00' },
    { status: 'submitted', at: '2026-11-21T12:00:01+02:00' },
    { status: 'delivered', at: '2026-11-21T12:00:05+02:00' },
  ]);
  expect(view.legs[1]?.history.map((change) => change.status)).toEqual(['pending', 'submitted', 'delivered']);
});

test('a leg with no outcome within the validity period expires', async () => {
  const emulator = makeEmulator({ validityPeriod: '2h' });
  emulator.setOutcomeDecider(() => [{ status: 'submitted', afterMs: 1000 }]);
  const message = await send(emulator, { recipient: ['27831234567'], message: 'Into the void' });
  await emulator.clock.advance('1h');
  expect(emulator.messages.get(message.id).status).toBe('submitted');
  await emulator.clock.advance('1h');
  expect(emulator.messages.get(message.id)).toMatchObject({
    status: 'expired',
    delivery_date: '2026-11-21T14:00:00+02:00',
  });
});

test('an outcome planned after the validity period becomes expired instead', async () => {
  const emulator = makeEmulator({ validityPeriod: '10m' });
  emulator.setOutcomeDecider(() => [
    { status: 'submitted', afterMs: 1000 },
    { status: 'delivered', afterMs: 3_600_000 },
  ]);
  const message = await send(emulator, { recipient: ['27831234567'], message: 'Slow' });
  await emulator.clock.advance('2h');
  expect(emulator.messages.get(message.id).legs[0]?.history.map((change) => change.status)).toEqual([
    'pending',
    'submitted',
    'expired',
  ]);
});

test('legs that end differently show the outcome of most legs (ties: the first recipient)', async () => {
  const emulator = makeEmulator();
  const outcomes: Record<string, 'delivered' | 'undelivered'> = {
    '27831234567': 'undelivered',
    '27831234568': 'delivered',
    '27831234569': 'delivered',
  };
  emulator.setOutcomeDecider(({ recipient }) => [{ status: outcomes[recipient] ?? 'delivered', afterMs: 1000 }]);
  const three = await send(emulator, { recipient: Object.keys(outcomes), message: 'Mixed' });
  const two = await send(emulator, { recipient: ['27831234567', '27831234568'], message: 'Tie' });
  await emulator.clock.advance('2s');
  expect(emulator.messages.get(three.id).status).toBe('delivered');
  expect(emulator.messages.get(two.id).status).toBe('undelivered');
});

test('a message shows pending while any leg is pending, then submitted while any is open', async () => {
  const emulator = makeEmulator();
  emulator.setOutcomeDecider(
    byLastDigit(steps(['submitted', 1000], ['delivered', 1000]), steps(['submitted', 3000], ['delivered', 3000])),
  );
  const message = await send(emulator, { recipient: ['27831234567', '27831234568'], message: 'Staggered' });
  await emulator.clock.advance('2s');
  expect(emulator.messages.get(message.id).status).toBe('pending');
  await emulator.clock.advance('2s');
  expect(emulator.messages.get(message.id).status).toBe('submitted');
  await emulator.clock.advance('2s');
  expect(emulator.messages.get(message.id).status).toBe('delivered');
});

test('editing the schedule moves the send; deleting cancels it', async () => {
  const emulator = makeEmulator();
  const moved = await send(emulator, { recipient: ['27831234567'], message: 'Moved', schedule: scheduleIn(20) });
  const deleted = await send(emulator, { recipient: ['27831234567'], message: 'Deleted', schedule: scheduleIn(20) });
  await call(emulator, 'PATCH', `/v1/messages/${moved.id}`, { body: { schedule: scheduleIn(60) } });
  await call(emulator, 'DELETE', `/v1/messages/${deleted.id}`);
  await emulator.clock.advance('30m');
  expect(emulator.messages.get(moved.id).status).toBe('scheduled');
  expect(await balance(emulator)).toBe(1000);
  await emulator.clock.advance('30m');
  expect(emulator.messages.get(moved.id).status).toBe('pending');
  expect(await balance(emulator)).toBe(999);
});

test('schedule windows are measured on the emulator clock', async () => {
  const emulator = makeEmulator();
  await emulator.clock.advance('3d');
  const reply = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567'], message: 'x', schedule: scheduleIn(60) },
  });
  expect(reply.body.message).toBe('DATE_TIME_INVALID');
  expect(
    (await send(emulator, { recipient: ['27831234567'], message: 'x', schedule: scheduleIn(3 * 24 * 60 + 16) })).status,
  ).toBe('scheduled');
});

test('the transition table allows no move out of a final status and none back to scheduled', () => {
  for (const status of ['delivered', 'undelivered', 'expired', 'blist', 'noroute', 'failed'] as const)
    expect(transitions[status]).toEqual([]);
  for (const from of Object.keys(transitions) as (keyof typeof transitions)[])
    expect(canTransition(from, 'scheduled')).toBe(false);
  expect(canTransition('submitted', 'pending')).toBe(false);
});

test('an illegal timeline from a decider is refused at the send with the reason, and nothing is stored or charged', async () => {
  const emulator = makeEmulator();
  emulator.setOutcomeDecider(() => [
    { status: 'submitted', afterMs: 1000 },
    { status: 'pending', afterMs: 1000 },
  ]);
  const reply = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567'], message: 'Bad plan' },
  });
  expect(reply).toMatchObject({
    status: 500,
    body: {
      message: 'INTERNAL_SERVER_ERROR',
      description: expect.stringContaining('a leg cannot go from submitted to pending'),
    },
  });
  expect(emulator.messages.list().items).toEqual([]);
  expect(emulator.accounts.get(apiKey).live.balance).toBe(1000);
});

test('a decider that throws when a scheduled message goes out is a clock incident; the message fails uncharged instead of staying scheduled', async () => {
  const emulator = makeEmulator();
  const later = await send(emulator, {
    recipient: ['27831234567', '27831234568'],
    message: 'Later',
    schedule: scheduleIn(20),
  });
  emulator.setOutcomeDecider(() => {
    throw new Error('decider bug');
  });
  const moved = await emulator.clock.advance('30m');
  expect(moved.incidents).toEqual([
    expect.objectContaining({
      task: 'scheduled send',
      outcome: 'failed',
      reason: expect.stringContaining(`message ${later.id} failed, nothing charged`),
    }),
  ]);
  expect(moved.incidents[0]?.reason).toContain('decider bug');
  expect(moved.time).toBe('2026-11-21T12:30:00+02:00');
  expect(await balance(emulator)).toBe(1000);
  const failed = emulator.messages.get(later.id);
  expect(failed).toMatchObject({ status: 'failed', credit: 0 });
  expect(failed.legs.map((leg) => leg.status)).toEqual(['failed', 'failed']);
  expect((await call(emulator, 'GET', `/v1/messages/${later.id}`)).body.status).toBe('failed');
  expect(emulator.webhooks.list().items.map((event) => event.status)).toEqual(['failed', 'failed']);
});

test('the emulator works when the host test runner fakes timers', async () => {
  vi.useFakeTimers();
  const emulator = makeEmulator();
  const message = await send(emulator, { recipient: ['27831234567'], message: 'Faked' });
  await emulator.clock.advance('5s');
  expect(emulator.messages.get(message.id).status).toBe('delivered');
  expect((await call(emulator, 'GET', '/v1/messages')).body.total_items).toBe(1);
});
