/** A snapshot is checked completely before anything changes: each broken one is refused naming its path. */

import { expect, test } from 'vitest';
import type { Snapshot } from '../../src/index.js';
import { maxInstant } from '../../src/domain/time.js';
import { call, makeEmulator, scheduleIn, send } from '../support/api.js';

/** An emulator with a message in flight, a scheduled one, a finished one, a reply and a second account. */
async function busyEmulator() {
  const emulator = makeEmulator();
  emulator.accounts.create({ apiKey: 'pk_second', balance: 50 });
  const inFlight = await send(emulator, { recipient: ['27831234567', '27830000002'], message: 'in flight' });
  await emulator.clock.advance('10s');
  await send(emulator, { recipient: ['27831234567'], message: 'now' });
  await send(emulator, { recipient: ['27831234568'], message: 'later', schedule: scheduleIn(60) });
  await emulator.clock.advance('2s');
  emulator.replies.inject(inFlight.id, { from: '27831234567', text: 'thanks' });
  return emulator;
}

type Mutation = (snapshot: any) => void;

test.each<[string, Mutation, string]>([
  [
    'a delivered leg planned to go submitted',
    (s) => s.messages[0].legs[0].plan.push({ status: 'submitted', at: s.clock.now + 1000 }),
    'messages.0.legs.0.plan.0.status',
  ],
  [
    'a leg status that is not the end of its history',
    (s) => (s.messages[1].legs[0].status = 'delivered'),
    'messages.1.legs.0.status',
  ],
  [
    'an illegal move in a leg history',
    (s) => s.messages[0].legs[0].history.push({ status: 'pending', at: s.clock.now }),
    'messages.0.legs.0.history.3.status',
  ],
  ['a message status its legs do not add up to', (s) => (s.messages[1].status = 'delivered'), 'messages.1.status'],
  [
    'a duplicate message id across accounts',
    (s) => s.messages.push({ ...structuredClone(s.messages[0]), apiKey: 'pk_second' }),
    'messages.3.id',
  ],
  ['a reply id that is also a message id', (s) => (s.replies[0].id = s.messages[0].id), 'replies.0.id'],
  ['a reply to a message that does not exist', (s) => (s.replies[0].inReplyTo = 'nope'), 'replies.0.inReplyTo'],
  ['a reply to another account’s message', (s) => (s.replies[0].apiKey = 'pk_second'), 'replies.0.inReplyTo'],
  [
    'a message of an account the snapshot does not define',
    (s) => (s.messages[0].apiKey = 'pk_ghost'),
    'does not define',
  ],
  ['an account defined twice', (s) => s.accounts.push(structuredClone(s.accounts[0])), 'accounts.2.apiKey'],
  ['a time past year 9999', (s) => (s.messages[0].createdAt = 1e300), 'messages.0.createdAt'],
  [
    'a plan time past year 9999',
    (s) => (s.messages[1].legs[0].plan[0].at = maxInstant + 1),
    'messages.1.legs.0.plan.0.at',
  ],
  ['a clock past its range', (s) => (s.clock.now = 8.64e15), 'clock.now'],
  ['a clock speed of 1e308', (s) => (s.clock.speed = 1e308), 'clock.speed'],
  ['a negative balance', (s) => (s.accounts[0].live.balance = -1), 'accounts.0.live.balance'],
  ['a fractional balance', (s) => (s.accounts[0].sandbox.balance = 1.5), 'accounts.0.sandbox.balance'],
  ['a plan that goes back in time', (s) => (s.messages[1].legs[0].plan[0].at = 0), 'messages.1.legs.0.plan.0.at'],
  [
    'a leg for a recipient the message does not have',
    (s) => (s.messages[0].legs[0].recipient = '27839999999'),
    'messages.0.legs.0.recipient',
  ],
  ['a message without legs', (s) => (s.messages[0].legs = []), 'messages.0.legs'],
  ['a scheduled message without its time', (s) => (s.messages[2].scheduleAt = null), 'messages.2.scheduleAt'],
  ['a reply in the message list', (s) => (s.messages[0].type = 'sms-reply'), 'messages.0.type'],
  [
    'an illegal forced outcome',
    (s) =>
      (s.messages[0].outcomeOverride = [
        { status: 'delivered', afterMs: 1 },
        { status: 'submitted', afterMs: 1 },
      ]),
    'messages.0.outcomeOverride.1.status',
  ],
  [
    'a test clock name longer than a created clock may have',
    (s) => s.clocks.push({ id: 'clock_a', name: 'x'.repeat(201), now: s.clock.now }),
    'clocks.0.name',
  ],
  [
    'a test clock id longer than an account may name',
    (s) => s.clocks.push({ id: 'c'.repeat(201), name: null, now: s.clock.now }),
    'clocks.0.id',
  ],
  ['a random state that is not 32-bit words', (s) => (s.random.ids = [1, 2, 3, 2 ** 40]), 'random.ids.3'],
  ['a message text of 200,000 characters', (s) => (s.messages[0].text = 'x'.repeat(200_000)), 'messages.0.text'],
  [
    'a webhook URL that is not a URL',
    (s) => (s.accounts[0].live.webhookUrl = 'not a url'),
    'accounts.0.live.webhookUrl',
  ],
  [
    'a file: webhook URL',
    (s) => (s.accounts[0].live.webhookUrl = 'file:///etc/passwd'),
    'accounts.0.live.webhookUrl: expected an http:// or https:// URL',
  ],
  [
    'a javascript: webhook URL',
    (s) => (s.accounts[1].sandbox.webhookUrl = 'javascript:alert(1)'),
    'accounts.1.sandbox.webhookUrl: expected an http:// or https:// URL',
  ],
])('refuses %s with CONTROL_INVALID_REQUEST naming the place, changing nothing', async (_, mutate, place) => {
  const emulator = await busyEmulator();
  const before = emulator.snapshot();
  const broken = structuredClone(before);
  mutate(broken);
  const reply = await call(emulator, 'PUT', '/_emulator/snapshot', { body: broken, key: false });
  expect(reply.status).toBe(400);
  expect(reply.body.message).toBe('CONTROL_INVALID_REQUEST');
  expect(reply.body.description).toContain(place);
  expect(emulator.snapshot()).toEqual(before);
  expect(() => emulator.restore(broken as Snapshot)).toThrow(/CONTROL_INVALID_REQUEST/);
  expect(emulator.snapshot()).toEqual(before);
});

test('a snapshot of every kind of state imports again unchanged', async () => {
  const emulator = await busyEmulator();
  const exported = emulator.snapshot();
  const copy = makeEmulator();
  copy.restore(exported);
  expect(copy.snapshot()).toEqual(exported);
  await copy.clock.advance('2h');
  await emulator.clock.advance('2h');
  expect(copy.snapshot()).toEqual(emulator.snapshot());
});
