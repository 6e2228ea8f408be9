/** Deleting a clock or an account takes everything of it along (messages, replies, journal, webhook log) and costs what it held. */

import { expect, test } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { control, makeEmulator, send } from '../support/api.js';

/** A test clock with one account on it that has sent one message (delivered, webhook skipped: no URL) and got a reply. */
async function world(emulator: Emulator, name: string, withTraffic = true): Promise<{ clock: string; apiKey: string }> {
  const clock = emulator.clocks.create({ name }).id;
  const apiKey = `pk_${name}`;
  emulator.accounts.create({ apiKey, signingSecret: `sk_${name}`, clock });
  if (withTraffic) {
    const sent = await send(emulator, { recipient: ['27831234567'], message: name }, 'live', apiKey, `sk_${name}`);
    await emulator.clocks.advance(clock, '10s');
    await emulator.replies.inject(sent.id, { text: `re ${name}` });
  }
  return { clock, apiKey };
}

test('deleting a clock forgets its accounts journal entries, webhook log entries, messages and replies, and nobody else', async () => {
  const emulator = makeEmulator();
  const gone = await world(emulator, 'gone');
  const kept = await world(emulator, 'kept');
  const before = {
    requests: (await control(emulator, 'GET', `/requests?account=${kept.apiKey}`)).body.items.length,
    webhooks: emulator.webhooks.list({ account: kept.apiKey }).items.length,
  };
  expect(before.requests).toBeGreaterThan(0);
  expect(before.webhooks).toBeGreaterThan(0);

  await emulator.clocks.delete(gone.clock);

  expect((await control(emulator, 'GET', `/requests?account=${gone.apiKey}`)).body.items).toEqual([]);
  expect(emulator.webhooks.list({ account: gone.apiKey }).items).toEqual([]);
  expect(emulator.messages.list({ account: gone.apiKey }).items).toEqual([]);
  expect(emulator.replies.list().items.map((reply) => reply.account)).toEqual([kept.apiKey]);
  expect((await control(emulator, 'GET', `/requests?account=${kept.apiKey}`)).body.items).toHaveLength(before.requests);
  expect(emulator.webhooks.list({ account: kept.apiKey }).items).toHaveLength(before.webhooks);
  expect(emulator.messages.list().items.map((message) => message.account)).toEqual([kept.apiKey]);
});

test('an account made again with a deleted one key starts with no journal, webhook log, messages or replies of the old one', async () => {
  const emulator = makeEmulator();
  const first = await world(emulator, 'again');
  const oldEvents = emulator.webhooks.list({ account: first.apiKey }).items.map((event) => event.id);
  await emulator.clocks.delete(first.clock);
  await world(emulator, 'again', false);

  expect(emulator.webhooks.list({ account: first.apiKey }).items).toEqual([]);
  for (const id of oldEvents) expect(() => emulator.webhooks.get(id)).toThrow(/No webhook event/);
  expect(emulator.messages.list({ account: first.apiKey }).items).toEqual([]);
  expect(emulator.replies.list({ account: first.apiKey }).items).toEqual([]);
  expect(
    (await control(emulator, 'GET', `/requests?account=${first.apiKey}`)).body.items.map(
      (r: { method: string }) => r.method,
    ),
  ).toEqual([]);
});

test('the control lists of every account stay whole and in order while accounts around them are deleted', async () => {
  const emulator = makeEmulator();
  const worlds: { clock: string; apiKey: string }[] = [];
  for (let i = 0; i < 12; i++) worlds.push(await world(emulator, `w${i}`));
  for (const index of [0, 3, 4, 5, 9, 10, 11]) await emulator.clocks.delete(worlds[index]!.clock);
  const left = [1, 2, 6, 7, 8].map((index) => worlds[index]!.apiKey);

  expect(emulator.messages.list().items.map((message) => message.account)).toEqual([...left].reverse());
  expect(emulator.messages.list({ status: 'delivered' }).total).toBe(left.length);
  expect(emulator.messages.list({ recipient: '27831234567' }).total).toBe(left.length);
  expect(emulator.replies.list().items.map((reply) => reply.account)).toEqual(left);
  for (const apiKey of left) expect(emulator.messages.list({ account: apiKey }).total).toBe(1);
  const snapshot = emulator.snapshot();
  emulator.restore(snapshot);
  expect(emulator.snapshot()).toEqual(snapshot);
});

/** The median of the per-clock cost of deleting `count` clocks out of `emulator`, in batches of `batch`. */
async function deletionSamples(emulator: Emulator, clocks: string[], batch: number): Promise<number[]> {
  const samples: number[] = [];
  for (let start = 0; start + batch <= clocks.length; start += batch) {
    const began = performance.now();
    for (const id of clocks.slice(start, start + batch)) emulator.clocks.delete(id);
    samples.push((performance.now() - began) / batch);
  }
  return samples;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

test('deleting one clock costs the same with 4,000 clocks in the emulator as with 1,000', async () => {
  // Each clock holds an account with a delivered message and its journal and webhook log entries. Both emulators are
  // deleted from in turn, batch by batch, so a busy machine slows both alike; the medians are compared.
  const small = makeEmulator();
  const large = makeEmulator();
  const fill = async (emulator: Emulator, count: number) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await world(emulator, `c${i}`)).clock);
    return ids;
  };
  const smallIds = await fill(small, 1000);
  const largeIds = await fill(large, 4000);
  const deleted = 400; // far from the point where vacancies outnumber the messages kept and a table is rebuilt
  const batch = 10;
  const smallSamples: number[] = [];
  const largeSamples: number[] = [];
  for (let start = 0; start < deleted; start += batch) {
    smallSamples.push(...(await deletionSamples(small, smallIds.slice(start, start + batch), batch)));
    largeSamples.push(...(await deletionSamples(large, largeIds.slice(start, start + batch), batch)));
  }
  const ratio = median(largeSamples) / median(smallSamples);
  expect(
    ratio,
    `per-clock delete: ${median(smallSamples)} ms at 1,000 clocks, ${median(largeSamples)} ms at 4,000`,
  ).toBeLessThan(1.5);
}, 120_000);
