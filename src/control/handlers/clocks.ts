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
import type { OperationTable } from '../operation.js';
import { clockCommand, noFilter, testClockInput } from '../inputs.js';
import { body, id, query } from '../argSpecs.js';

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

export const clocksRows = {
  list: {
    method: 'GET',
    path: '/clocks',
    answer: 'TestClock',
    args: [query],
    input: noFilter,
    inputName: 'clock filter',
    pages: true,
    summary:
      'Every test clock, in creation order: `{id, name, now, time, mode, speed, pendingTasks, incidents, accounts}` (`accounts`: the API keys on it).',
    run: listClocks,
  },
  get: {
    method: 'GET',
    path: '/clocks/{id}',
    answer: 'TestClock',
    args: [id],
    summary: 'One test clock.',
    run: getClock,
  },
  create: {
    method: 'POST',
    path: '/clocks',
    answer: 'TestClock',
    args: [body],
    input: testClockInput,
    inputName: 'clock',
    status: 201,
    summary:
      'Creates a test clock, frozen until moved: `{"startTime"?: "2026-11-22T09:00:00Z", "name"?: "booking test"}` (default start: the main clock\'s now). Accounts created with `"clock": id` live on it.',
    run: createClock,
  },
  move: {
    method: 'POST',
    path: '/clocks/{id}',
    answer: 'TestClock',
    args: [id, body],
    input: clockCommand,
    inputName: 'clock command',
    settles: settlesTestClock,
    summary:
      'Moves a test clock like `POST /clock` (`advance`, `set`, `runUntilIdle` with `limit`, `next`; no `mode` or `speed`: a test clock is always manual); only its own tasks fire; answers after their webhooks were tried.',
    run: moveTestClock,
  },
  delete: {
    method: 'DELETE',
    path: '/clocks/{id}',
    args: [id],
    status: 204,
    summary:
      'Deletes a test clock and every account on it, with their messages, journal entries and webhook log entries (204, no body).',
    run: deleteClock,
  },
  now: {
    via: 'clocks.get',
    summary: "A test clock's time as a Date.",
    map: (clockId) => [clockId],
    answer: (clock: { now: number }) => new Date(clock.now),
  },
  advance: {
    via: 'clocks.move',
    summary: 'Moves a test clock forward by a duration.',
    map: (clockId, duration) => [clockId, { advance: duration }],
  },
  set: {
    via: 'clocks.move',
    summary: 'Sets a test clock to an instant.',
    map: (clockId, instant) => [clockId, { set: instant }],
  },
  runUntilIdle: {
    via: 'clocks.move',
    summary: 'Runs a test clock until none of its tasks is queued (or a limit).',
    map: (clockId, options = {}) => [clockId, { runUntilIdle: true, ...options }],
  },
  next: {
    via: 'clocks.move',
    summary: 'Runs a test clock to its next queued event.',
    map: (clockId) => [clockId, { next: true }],
  },
} satisfies OperationTable['clocks'];
