import { expect, test } from 'vitest';
import { appendChange, firstHistory, noSteps, statusChange } from '../../src/domain/message.js';
import { planLeg } from '../../src/engine/lifecycle.js';
import { makeEmulator, send } from '../support/api.js';

test('legs with no step to come share one frozen empty plan, which stays empty through sends, forced outcomes and snapshots', async () => {
  expect(Object.isFrozen(noSteps)).toBe(true);
  const emulator = makeEmulator();
  const sent = await send(emulator, { recipient: ['27831110000', '27832220000'], message: 'Hello' });
  await emulator.messages.forceStatus(sent.id, { status: 'delivered', recipient: '27831110000' });
  await emulator.clock.advance('7d');
  emulator.restore(emulator.snapshot());
  await send(emulator, { recipient: ['27831110000'], message: 'Again' });
  await emulator.clock.advance('7d');
  expect(noSteps).toEqual([]);
  expect(
    emulator.messages.list().items.every((message) => message.legs.every((leg) => leg.upcoming.length === 0)),
  ).toBe(true);
});

test('changes and first histories of the same status and instant are one frozen object, shared by every message they belong to', () => {
  const change = statusChange('pending', 1_000);
  expect(statusChange('pending', 1_000)).toBe(change);
  expect(Object.isFrozen(change)).toBe(true);
  expect(statusChange('pending', 1_001)).not.toBe(change);
  expect(statusChange('submitted', 1_001)).toEqual({ status: 'submitted', at: 1_001 });
  const history = firstHistory('scheduled', 2_000);
  expect(firstHistory('scheduled', 2_000)).toBe(history);
  expect(history).toEqual([{ status: 'scheduled', at: 2_000 }]);
  expect(Object.isFrozen(history)).toBe(true);
});

test('appending the same change to the same history answers the same frozen history, so messages moved alike share one', () => {
  const start = firstHistory('pending', 3_000);
  const submitted = appendChange(start, statusChange('submitted', 4_000));
  expect(appendChange(start, statusChange('submitted', 4_000))).toBe(submitted);
  expect(submitted).toEqual([
    { status: 'pending', at: 3_000 },
    { status: 'submitted', at: 4_000 },
  ]);
  expect(Object.isFrozen(submitted)).toBe(true);
  expect(appendChange(start, statusChange('submitted', 4_001))).not.toBe(submitted);
  expect(appendChange(submitted, statusChange('delivered', 5_000))).toHaveLength(3);
});

test('legs planned alike from the same instant share their planned steps', () => {
  const timeline = [
    { status: 'submitted' as const, afterMs: 1_000 },
    { status: 'delivered' as const, afterMs: 2_000 },
  ];
  const first = planLeg(timeline, 10_000, 60_000);
  const second = planLeg(timeline, 10_000, 60_000);
  expect(second).not.toBe(first); // each leg shifts its own plan
  expect(second[0]).toBe(first[0]);
  expect(second[1]).toBe(first[1]);
  expect(first).toEqual([
    { status: 'submitted', at: 11_000 },
    { status: 'delivered', at: 13_000 },
  ]);
});

test("a timeline's own expired step past the validity period comes when it says; any other step past it expires the leg at the period's end", () => {
  const submittedThen = (status: 'expired' | 'delivered') => [
    { status: 'submitted' as const, afterMs: 1_000 },
    { status, afterMs: 60_000 },
  ];
  expect(planLeg(submittedThen('expired'), 10_000, 60_000).map(({ status, at }) => [status, at])).toEqual([
    ['submitted', 11_000],
    ['expired', 71_000],
  ]);
  expect(planLeg(submittedThen('delivered'), 10_000, 60_000).map(({ status, at }) => [status, at])).toEqual([
    ['submitted', 11_000],
    ['expired', 70_000],
  ]);
});
