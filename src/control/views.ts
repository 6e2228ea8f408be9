/** What the control operations answer beyond the engine's own views: clocks, worlds, behaviour rates, opt-outs and waits. */

import type { Environment } from '../domain/environment.js';
import { formatInstant } from '../domain/time.js';
import type { Core } from '../engine/core.js';
import type { AccountView } from '../engine/inspection.js';
import type { MessageView } from '../domain/messageView.js';
import type { Clock, ClockIncident, ClockRun, ClockState } from '../state/clock.js';
import type { WebhookChaos } from '../webhooks/behaviourRates.js';

export interface ClockIncidentView extends Omit<ClockIncident, 'due'> {
  /** When the task was due, rendered in the emulator's offset. */
  time: string;
}

export interface ClockView extends Omit<ClockState, 'incidents'> {
  /** The current time rendered in the emulator's offset. */
  time: string;
  /** The most recent clock tasks that failed or were skipped, oldest first. */
  incidents: ClockIncidentView[];
  /** How a `runUntilIdle` or `next` command ended: tasks fired, whether nothing is left queued, and why it stopped if not. */
  run?: ClockRun;
}

/** A test clock: the main clock's view plus its id, optional name and the API keys of the accounts that live on it. */
export interface TestClockView extends ClockView {
  id: string;
  name: string | null;
  accounts: string[];
}

/** A test's world as one call makes it: its test clock and the account on it. */
export interface WorldView {
  clock: TestClockView;
  account: AccountView;
}

/**
 * The delivery-behaviour rates (webhooks.chaos): emulator-wide `duplicate`, `late` and `reorder` behaviours with a probability
 * from 0 to 1, and the hold of `late` (milliseconds out; a duration or milliseconds in).
 */
export interface ChaosView {
  duplicateRate: number;
  delayRate: number;
  reorderRate: number;
  delay: number;
}

/**
 * The limits this emulator applies, as started: what a suite in another process reads instead of the landing page's
 * HTML or its own copy of the start flags.
 */
export interface LimitsView {
  /** Most recipients per request (BATCH_LIMIT_EXCEEDED above it). */
  batchLimit: number;
  /** Why that limit: the default or the option, and the spec's two numbers. */
  batchLimitNote: string;
  /** Longest message text in characters (MESSAGE_LIMIT_EXCEEDED above it). */
  messageLimit: number;
  /** Largest request body in bytes (PAYLOAD_TOO_LARGE above it). */
  maxBodySize: number;
}

/** Where a number stands on an account's opt-out list. */
export interface OptOutView {
  account: string;
  environment: Environment;
  number: string;
  optedOut: boolean;
}

/** Where a wait over HTTP ended: the message, and the time its clock shows then (`id` null for the main clock). */
export interface WaitView {
  message: MessageView;
  clock: { id: string | null; now: number; time: string };
}

export function clockView(core: Core, clock: Clock): ClockView {
  const { incidents, ...state } = clock.state();
  const render = (ms: number) => formatInstant(ms, core.offsetMinutes);
  return {
    ...state,
    time: render(state.now),
    incidents: incidents.map(({ due, ...incident }) => ({ time: render(due), ...incident })),
  };
}

export function testClockView(core: Core, clock: Clock): TestClockView {
  const accounts = core.accounts.on(clock).map((account) => account.apiKey);
  return { id: clock.id as string, name: clock.name, ...clockView(core, clock), accounts };
}

export function chaosView({ delayMs, ...rates }: WebhookChaos): ChaosView {
  return { ...rates, delay: delayMs };
}
