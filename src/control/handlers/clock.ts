/** The main clock: read it, and move it (the move every clock shares: check all, then apply, then run). */

import { parseDuration } from '../../domain/time.js';
import type { Core } from '../../engine/core.js';
import type { Clock, ClockRun } from '../../state/clock.js';
import type { ClockCommand } from '../inputs.js';
import type { OperationDeps } from '../operation.js';
import { type ClockView, clockView } from '../views.js';

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

/** Moves `clock`; the answer is read by the function it resolves with, once the webhook tries the move caused have ended. */
export async function moveClock(core: Core, clock: Clock, command: ClockCommand): Promise<() => ClockView> {
  const from = clock.now();
  // Every part is checked before any is applied, so a command refused for its set or advance changes no mode or speed.
  const setTo = command.set === undefined ? undefined : Date.parse(command.set);
  if (setTo !== undefined) clock.checkSet(setTo, from);
  if (command.advance !== undefined) clock.checkAdvance(parseDuration(command.advance) ?? 0, setTo ?? from);
  if (command.mode !== undefined || command.speed !== undefined) clock.configure(command);
  if (setTo !== undefined) clock.set(setTo);
  if (command.advance !== undefined) clock.advance(parseDuration(command.advance) ?? 0);
  let run: ClockRun | undefined;
  if (command.runUntilIdle)
    run = await clock.runUntilIdle(parseDuration(command.limit ?? defaultRunLimit) ?? 0, () =>
      core.webhooks.settled(clock),
    );
  const fired = command.next ? clock.next() : 0;
  const { now, mode, speed } = clock.state();
  core.events.emit('clock.moved', { clock: clock.id, from, to: now, mode, speed, command: { ...command } });
  return () => {
    const ran = command.next ? { fired, idle: clock.state().pendingTasks === 0 } : run;
    return ran ? { ...clockView(core, clock), run: ran } : clockView(core, clock);
  };
}
