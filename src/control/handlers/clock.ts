/** The main clock: read it, and move it (the move every clock shares: check all, then apply, then run). */

import { parseDuration } from '../../domain/time.js';
import type { Core } from '../../engine/core.js';
import type { Clock } from '../../state/clock.js';
import type { ClockCommand } from '../inputs.js';
import type { OperationDeps } from '../operation.js';
import { type ClockView, clockView } from '../views.js';
import type { OperationTable } from '../operation.js';
import { clockCommand } from '../inputs.js';
import { body } from '../argSpecs.js';

/** How far `runUntilIdle` may go when no limit is given. */
const defaultRunLimit = '30d';

export function clockState({ core }: OperationDeps): ClockView {
  return clockView(core, core.clock);
}

/**
 * Applies mode/speed, then `set`, then `advance`, or runs until idle / to the next task; due events fire in time order
 * on the way. The answer is read after the webhook tries the move caused have ended.
 */
export function moveMainClock({ core }: OperationDeps, command: ClockCommand): Promise<() => ClockView> {
  return moveClock(core, core.clock, command);
}

/** The clock whose webhook tries a move of the main clock waits for. */
export function settlesMainClock({ core }: OperationDeps): Clock {
  return core.clocks.main;
}

/**
 * Moves `clock`, after any move of it still under way; the answer is read by the function it resolves with, once the
 * webhook tries the move caused have ended. Every due instant on the way is a stop: its tasks fire and their tries are
 * made with the clock standing there, then it moves on.
 */
export function moveClock(core: Core, clock: Clock, command: ClockCommand): Promise<() => ClockView> {
  return clock.exclusive(async () => {
    const from = clock.now();
    // Every part is checked before any is applied, so a command refused for its set or advance changes no mode or speed.
    const setTo = command.set === undefined ? undefined : Date.parse(command.set);
    if (setTo !== undefined) clock.checkSet(setTo, from);
    if (command.advance !== undefined) clock.checkAdvance(parseDuration(command.advance) ?? 0, setTo ?? from);
    if (command.mode !== undefined || command.speed !== undefined) clock.configure(command);
    const settle = (): Promise<void> | undefined => core.webhooks.settling(clock);
    if (setTo !== undefined) await clock.set(setTo, settle);
    if (command.advance !== undefined) await clock.advance(parseDuration(command.advance) ?? 0, settle);
    const run = command.runUntilIdle
      ? await clock.runUntilIdle(parseDuration(command.limit ?? defaultRunLimit) ?? 0, settle)
      : undefined;
    const fired = command.next ? await clock.next(settle) : 0;
    const { now, mode, speed } = clock.state();
    core.events.emit('clock.moved', { clock: clock.id, from, to: now, mode, speed, command: { ...command } });
    return () => {
      const ran = command.next ? { fired, idle: clock.state().pendingTasks === 0 } : run;
      return ran ? { ...clockView(core, clock), run: ran } : clockView(core, clock);
    };
  });
}

export const clockRows = {
  state: {
    method: 'GET',
    path: '/clock',
    answer: 'Clock',
    args: [],
    summary:
      'The clock: `{now, time, mode, speed, pendingTasks, incidents}` (`incidents`: recent tasks that failed or were skipped, `{time, task, outcome, reason}`).',
    run: clockState,
  },
  move: {
    method: 'POST',
    path: '/clock',
    answer: 'Clock',
    args: [body],
    input: clockCommand,
    inputName: 'clock command',
    settles: settlesMainClock,
    summary:
      'Moves the clock: `{"advance": "15m"}`, `{"set": "2026-11-22T09:00:00+02:00"}`, `{"mode": "manual"}`, `{"speed": 60}` (combinable; mode/speed, then set, then advance); or `{"runUntilIdle": true, "limit": "30d"}` or `{"next": true}` (the answer adds `run: {fired, idle, stoppedAt?}`). Due events fire in time order; answers after their webhooks were tried.',
    run: moveMainClock,
  },
  now: {
    via: 'clock.state',
    summary: 'The current time as a Date.',
    map: () => [],
    answer: (clock: { now: number }) => new Date(clock.now),
  },
  advance: {
    via: 'clock.move',
    summary: 'Moves the clock forward by a duration.',
    map: (duration) => [{ advance: duration }],
  },
  set: { via: 'clock.move', summary: 'Sets the clock to an instant.', map: (instant) => [{ set: instant }] },
  configure: { via: 'clock.move', summary: 'Changes mode and speed.', map: (settings) => [settings] },
  runUntilIdle: {
    via: 'clock.move',
    summary: 'Runs until nothing is queued (or a limit).',
    map: (options = {}) => [{ runUntilIdle: true, ...options }],
  },
  next: { via: 'clock.move', summary: 'Runs to the next queued event.', map: () => [{ next: true }] },
} satisfies OperationTable['clock'];
