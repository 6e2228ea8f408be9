/** Credit budgets of createSmsTest as a user's vitest run sees them: a test over its budget fails, a suite over its budget fails the run naming its top spenders, in both modes. */

import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { createSmsTest } from '../../src/vitest/index.js';
import { runVitest, testOf } from '../support/vitestRun.js';

const project = fileURLToPath(new URL('../fixtures/vitest-budget/', import.meta.url));

test('a test whose account spent more than its budget fails naming its top spenders; one within it passes', async () => {
  const run = await runVitest(project, ['testBudget']);
  for (const mode of ['embedded', 'process']) {
    expect(testOf(run, mode, 'testBudget.fixture.ts', 'spends within its budget')).toMatchObject({
      state: 'passed',
      errors: [],
    });
    const over = testOf(run, mode, 'testBudget.fixture.ts', 'spends past its budget');
    expect(over.state).toBe('failed');
    expect(over.errors).toEqual([
      'sms-emulator: expected the test to cost at most 2 credits; it spent 3 credits on 2 messages. Top spenders:\n' +
        '  - 2 credits: to 27831234567, 27831234568: "Your parcel’s here" (UCS-2, 1 segment × 2 recipients; UCS-2 forced by "’" at 12)\n' +
        '  - 1 credit: to 27831234567: "Thanks" (GSM-7, 1 segment × 1 recipient)',
    ]);
    // Like any failed test, it carries its account's timeline.
    expect(over.artifacts.map((artifact) => artifact.type)).toEqual(['sms-emulator:timeline']);
    const world = testOf(run, mode, 'testBudget.fixture.ts', 'spends past a world budget of 0');
    expect(world.errors).toEqual([
      expect.stringContaining('expected the test to cost at most 0 credits; it spent 1 credit'),
    ]);
  }
  expect(run.code).toBe(1);
}, 120_000);

test('a suite whose passing tests together spent more than its budget fails the run, naming the tests that spent most', async () => {
  const run = await runVitest(project, ['suiteBudget']);
  for (const mode of ['embedded', 'process'])
    for (const name of ['sends one reminder', 'sends the parcel notice to two numbers', 'sends nothing'])
      expect(testOf(run, mode, 'suiteBudget.fixture.ts', name).state).toBe('passed');
  expect(run.code).toBe(1);
  const failure =
    'sms-emulator: expected the suite to cost at most 3 credits (createSmsTest budget.suite); its 3 tests spent 5 credits. Top spenders:\n' +
    '  - 4 credits: sends the parcel notice to two numbers; costliest: 4 credits: to 27831234567, 27831234568: "Your parcel’s here xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" (UCS-2, 2 segments × 2 recipients; UCS-2 forced by "’" at 12)\n' +
    '  - 1 credit: sends one reminder; costliest: 1 credit: to 27831234567: "See you at 10" (GSM-7, 1 segment × 1 recipient)\n' +
    '  - 0 credits: sends nothing';
  expect(run.output.split(failure)).toHaveLength(3);
}, 120_000);

test('a budget that is not a whole number of credits from 0 is refused where it is given', () => {
  expect(() => createSmsTest({ budget: { test: -1 } })).toThrow(
    'sms-emulator: createSmsTest budget.test takes a whole number of credits from 0, not -1.',
  );
  expect(() => createSmsTest({ budget: { suite: 2.5 } })).toThrow(/budget\.suite takes a whole number of credits/);
});
