import { afterEach, expect, test } from 'vitest';
import { createWebhookCatcher, type Emulator } from '../../src/index.js';
import { balance, call, makeEmulator, scheduleIn, send } from '../support/api.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

async function withCatcher() {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator({ webhookUrl: catcher.url });
  open.push(catcher, emulator);
  return { emulator, catcher };
}

const force = (emulator: Emulator, id: string, body: unknown) =>
  call(emulator, 'POST', `/_emulator/messages/${id}/status`, { raw: JSON.stringify(body), key: false });

const outcomes = ['delivered', 'undelivered', 'expired', 'blist', 'noroute', 'failed', 'cancelled'] as const;

test('a sent message can be forced to every outcome over HTTP; the answer comes after its webhook was tried', async () => {
  const { emulator, catcher } = await withCatcher();
  for (const outcome of outcomes) {
    const sent = await send(emulator, { recipient: ['27831234567'], message: `to ${outcome}` });
    const reply = await force(emulator, sent.id, { status: outcome });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: sent.id, status: outcome, legs: [{ status: outcome, upcoming: [] }] });
    expect(reply.body.delivery_date).toBe('2026-11-21T12:00:00+02:00');
    expect(catcher.received.map((request) => [request.body.id, request.body.status])).toContainEqual([
      sent.id,
      outcome,
    ]);
  }
});

test('a sent message can be forced to every outcome through the library', async () => {
  const emulator = makeEmulator();
  for (const outcome of outcomes) {
    const sent = await send(emulator, { recipient: ['27831234567'], message: `to ${outcome}` });
    expect((await emulator.messages.forceStatus(sent.id, { status: outcome })).status).toBe(outcome);
    await emulator.clock.advance('1h');
    expect(emulator.messages.get(sent.id).status).toBe(outcome);
  }
});

test('an illegal move is refused with the state machine reason and changes nothing', async () => {
  const emulator = makeEmulator();
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'done' });
  await emulator.clock.advance('1m');
  const reply = await force(emulator, sent.id, { status: 'undelivered' });
  expect(reply).toMatchObject({
    status: 400,
    body: {
      message: 'CONTROL_INVALID_REQUEST',
      description: expect.stringContaining('a leg cannot go from delivered to undelivered'),
    },
  });
  expect(emulator.messages.get(sent.id).status).toBe('delivered');
  await expect(emulator.messages.forceStatus(sent.id, { status: 'cancelled' })).rejects.toThrow(
    /a leg cannot go from delivered to cancelled/,
  );
});

test('one recipient can be forced alone; the others keep their plan', async () => {
  const emulator = makeEmulator();
  const sent = await send(emulator, { recipient: ['27831234567', '27831234568'], message: 'two' });
  await emulator.clock.advance('1s');
  const forced = await emulator.messages.forceStatus(sent.id, { status: 'undelivered', recipient: '27831234568' });
  expect(forced.legs.map((leg) => leg.status)).toEqual(['submitted', 'undelivered']);
  await emulator.clock.advance('1m');
  expect(emulator.messages.get(sent.id).legs.map((leg) => leg.status)).toEqual(['delivered', 'undelivered']);
  expect((await force(emulator, sent.id, { status: 'failed', recipient: '27839999999' })).body.description).toContain(
    'not one of its recipients',
  );
});

test('forcing an open status cancels the rest of the plan; the leg then expires after the validity period', async () => {
  const emulator = makeEmulator();
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'stuck' });
  const forced = await emulator.messages.forceStatus(sent.id, { status: 'submitted' });
  expect(forced.legs[0]?.upcoming).toEqual([{ status: 'expired', at: '2026-11-23T12:00:00+02:00' }]);
  await emulator.clock.advance('1h');
  expect(emulator.messages.get(sent.id).status).toBe('submitted');
  await emulator.clock.advance('48h');
  expect(emulator.messages.get(sent.id).status).toBe('expired');
});

test('a scheduled message forced to failed never goes out and is never charged', async () => {
  const emulator = makeEmulator();
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'later', schedule: scheduleIn(20) });
  expect((await force(emulator, sent.id, { status: 'delivered' })).body.description).toContain(
    'a leg cannot go from scheduled to delivered',
  );
  expect((await force(emulator, sent.id, { status: 'failed' })).body.status).toBe('failed');
  await emulator.clock.advance('1h');
  expect(emulator.messages.get(sent.id).status).toBe('failed');
  expect(await balance(emulator)).toBe(1000);
});

test('bad forced-status input is refused with a catalogued error', async () => {
  const emulator = makeEmulator();
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'x' });
  expect((await force(emulator, sent.id, { status: 'pending' })).body).toMatchObject({
    message: 'CONTROL_INVALID_REQUEST',
    description: expect.stringContaining('status'),
  });
  expect((await force(emulator, sent.id, { status: 'failed', extra: 1 })).status).toBe(400);
  expect((await force(emulator, sent.id, { status: 'failed', recipient: 'x'.repeat(10_000) })).status).toBe(400);
  expect((await force(emulator, 'nope', { status: 'failed' })).status).toBe(404);
  expect((await call(emulator, 'GET', `/_emulator/messages/${sent.id}/status`, { key: false })).status).toBe(405);
  expect(emulator.messages.get(sent.id).status).toBe('pending');
});
