/** Test clocks: list, read, create, move (only their own tasks fire) and delete (with every account on them). */

import { ApiError } from '../../domain/errors.js';
import { quoteExcerpt } from '../../domain/excerpt.js';
import { paginate, type Page } from '../../domain/list.js';
import type { Clock } from '../../state/clock.js';
import type { ClockCommand, TestClockInput } from '../inputs.js';
import type { OperationDeps, Paged } from '../operation.js';
import { type TestClockView, testClockView } from '../views.js';
import { deleteAccount } from './accounts.js';
import { moveClock } from './clock.js';

export function listClocks({ core }: OperationDeps, { page, limit }: Paged): Page<TestClockView> {
  return paginate(
    core.clocks.list().map((clock) => testClockView(core, clock)),
    page,
    limit,
  );
}

export function getClock({ core }: OperationDeps, id: string): TestClockView {
  return testClockView(core, core.clocks.get(id));
}

/** Makes a test clock, frozen at `startTime` (default the main clock's now) until moved. */
export function createClock({ core }: OperationDeps, { startTime, name }: TestClockInput): TestClockView {
  return testClockView(
    core,
    core.clocks.create({ startTime: startTime === undefined ? undefined : Date.parse(startTime), name }),
  );
}

/** Moves one test clock as the main one moves (no mode or speed: a test clock is always manual); only its own tasks fire. */
export async function moveTestClock(
  { core }: OperationDeps,
  id: string,
  command: ClockCommand,
): Promise<() => TestClockView> {
  const clock = core.clocks.get(id);
  if (command.mode !== undefined || command.speed !== undefined) {
    throw new ApiError(
      'CONTROL_INVALID_REQUEST',
      `Invalid clock command: clock ${quoteExcerpt(id)} is a test clock, always manual; move it with advance, set, runUntilIdle or next (mode and speed belong to the main clock).`,
    );
  }
  const moved = await moveClock(core, clock, command);
  return () => {
    const { run } = moved();
    return run ? { ...testClockView(core, clock), run } : testClockView(core, clock);
  };
}

/** The test clock whose webhook tries its move waits for. */
export function settlesTestClock({ core }: OperationDeps, id: string): Clock {
  return core.clocks.get(id);
}

/** Deletes a test clock and every account on it, with their messages, journal entries and webhook log entries. */
export function deleteClock(deps: OperationDeps, id: string): void {
  const clock = deps.core.clocks.get(id);
  const apiKeys = deps.core.accounts.on(clock).map((account) => account.apiKey);
  for (const apiKey of apiKeys) deleteAccount(deps, apiKey);
  deps.core.clocks.delete(clock);
}
