/** Delivery timelines and the one decision point that picks a leg's timeline. */

import type { Environment, LegStatus, MessageRecord } from '../domain/message.js';
import type { Account } from '../state/store.js';

/** One step of a leg's life: become `status` `afterMs` after the previous step. */
export interface TimelineStep {
  status: LegStatus;
  afterMs: number;
}

export type Timeline = readonly TimelineStep[];

export interface OutcomeContext {
  message: MessageRecord;
  recipient: string;
  environment: Environment;
  account: Account;
}

/** Chooses the timeline of one leg; scenarios plug in here. Undefined means "no opinion". */
export type OutcomeDecider = (context: OutcomeContext) => Timeline | undefined;

/** `pending` → `submitted` after 1 s → `delivered` 4 s later, when nothing else decides. */
export const defaultTimeline: Timeline = [
  { status: 'submitted', afterMs: 1_000 },
  { status: 'delivered', afterMs: 4_000 },
];
