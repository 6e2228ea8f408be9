/** The message record, its per-recipient legs, and the one table of legal status transitions. */

import type { Environment } from './environment.js';

export { type Environment, environments } from './environment.js';

/** How a delivery can end, each a named outcome (a scenario's `outcome`, the outcome header) with its usual timeline. */
export const deliveryOutcomes = ['delivered', 'undelivered', 'expired', 'blist', 'noroute', 'failed'] as const;
export type DeliveryOutcome = (typeof deliveryOutcomes)[number];
/** Outcomes a delivery leg can end in: a delivery's, or cancelled before it went out. */
export const finalStatuses = [...deliveryOutcomes, 'cancelled'] as const;
export type FinalStatus = (typeof finalStatuses)[number];
/** Statuses a leg can be moved to (by its plan, the outcome header, a scenario or a forced change): any but the `pending` it starts in. */
export const reachableStatuses = ['staged', 'submitted', ...finalStatuses] as const;
/** Every status of a leg. */
export const legStatuses = ['pending', ...reachableStatuses] as const;
export type LegStatus = (typeof legStatuses)[number];
/** Every status of a message (a leg's, or `scheduled` before it goes out): the spec's nine plus pending and scheduled, the values the list filter `status` accepts. */
export const messageStatuses = ['scheduled', ...legStatuses] as const;
export type MessageStatus = (typeof messageStatuses)[number];
/** The statuses a leg's history starts with: `scheduled` for a message sent later, `pending` for one sent now. */
export const startStatuses: readonly MessageStatus[] = ['scheduled', 'pending'];

const finals: readonly LegStatus[] = finalStatuses;

/**
 * Every legal move of a leg. `failed` from `scheduled` is the message-level move when credits
 * run short at schedule time; delivery outcomes come from `pending`, `staged` or `submitted`.
 */
export const transitions: Readonly<Record<MessageStatus, readonly MessageStatus[]>> = {
  scheduled: ['pending', 'failed'],
  pending: ['staged', 'submitted', ...finals],
  staged: ['pending', 'submitted', ...finals],
  submitted: finals.filter((status) => status !== 'cancelled'),
  delivered: [],
  undelivered: [],
  expired: [],
  blist: [],
  noroute: [],
  failed: [],
  cancelled: [],
};

export function isFinal(status: MessageStatus): boolean {
  return transitions[status].length === 0;
}

export function canTransition(from: MessageStatus, to: MessageStatus): boolean {
  return transitions[from].includes(to);
}

/** Why a leg cannot move from `from` to `to`, in the words every refusal uses; undefined when it can. */
export function transitionProblem(from: MessageStatus, to: MessageStatus): string | undefined {
  return canTransition(from, to) ? undefined : `a leg cannot go from ${from} to ${to}`;
}

/**
 * The first step of a walk of statuses that is no legal move from the one before it (from `from`, the `pending` a
 * new leg starts in unless said): its place and why; undefined when every step is legal. The one test of a timeline,
 * whether a scenario's, an outcome header's, a decider's or a saved override.
 */
export function walkProblem(
  statuses: readonly string[],
  from: MessageStatus = 'pending',
): { index: number; problem: string } | undefined {
  let status = from;
  for (const [index, next] of statuses.entries()) {
    const problem = transitionProblem(status, next as MessageStatus);
    if (problem) return { index, problem };
    status = next as MessageStatus;
  }
  return undefined;
}

export interface StatusChange {
  readonly status: MessageStatus;
  readonly at: number;
}

/** The change and the one-change history made last for each status, handed out again for the same instant. */
const recent = new Map<MessageStatus, { change: StatusChange; history: readonly StatusChange[] }>();

function recentFor(status: MessageStatus, at: number): { change: StatusChange; history: readonly StatusChange[] } {
  let entry = recent.get(status);
  if (entry?.change.at !== at) {
    const change = Object.freeze({ status, at });
    entry = { change, history: Object.freeze([change]) };
    recent.set(status, entry);
  }
  return entry;
}

/**
 * The change to `status` at `at`. Changes are never mutated (frozen), so messages sent or moved in the same
 * millisecond (a burst; every send on a paused manual clock) share one instead of holding 56 bytes each.
 */
export function statusChange(status: MessageStatus, at: number): StatusChange {
  return recentFor(status, at).change;
}

/** A history of the one change to `status` at `at`, shared like statusChange's changes (histories are never mutated either). */
export function firstHistory(status: MessageStatus, at: number): readonly StatusChange[] {
  return recentFor(status, at).history;
}

/** The last append's inputs and answer: the next append of the same change to the same history answers it again. */
let lastAppend: { history: readonly StatusChange[]; change: StatusChange; result: readonly StatusChange[] } | undefined;

/**
 * `history` with `change` appended, in a new array of exactly that length. A history takes a few
 * appends and is then kept for the life of the message; push() would grow it to V8's 17-slot minimum,
 * which heap snapshots of 100k stored messages showed as their largest single cost (docs/decisions/0001-fast-lane.md).
 * Histories are never mutated (frozen), so messages that went through the same changes at the same
 * instants (shared by statusChange) share their history too: the same append answers the same array.
 */
export function appendChange(history: readonly StatusChange[], change: StatusChange): readonly StatusChange[] {
  if (lastAppend?.history !== history || lastAppend.change !== change) {
    lastAppend = { history, change, result: Object.freeze(history.concat(change)) };
  }
  return lastAppend.result;
}

/**
 * The plan of a leg with no step to come, shared by every such leg: a final leg keeps its plan for the life of the
 * message, and an empty array each cost 32 bytes of heap per message (docs/decisions/0001-fast-lane.md). Frozen, so a
 * push would throw instead of reaching every leg; legs get a plan of their own from planLeg, and shift() only a
 * non-empty one.
 */
export const noSteps = Object.freeze([]) as unknown as StatusChange[];

export interface Leg {
  recipient: string;
  status: MessageStatus;
  /** Never mutated (appendChange makes a new one), so legs and their message may share one. */
  history: readonly StatusChange[];
  /** Status changes still to come, with their absolute times (kept as data so snapshots restore them). */
  plan: StatusChange[];
}

/** A message's type: one the account sent, or a reply it received. */
export const messageTypes = ['sms', 'sms-reply'] as const;
export type MessageType = (typeof messageTypes)[number];

export interface MessageRecord {
  id: string;
  type: MessageType;
  environment: Environment;
  apiKey: string;
  recipients: string[];
  text: string;
  clientReference: string | null;
  /** Instant the message is scheduled for; null for an immediate send. */
  scheduleAt: number | null;
  status: MessageStatus;
  credit: number;
  createdAt: number;
  /** Time of the latest final outcome of any leg; null until one is reached. */
  deliveredAt: number | null;
  legs: Leg[];
  /** Message-level status history (aggregate), each with its time; never mutated, like a leg's. */
  history: readonly StatusChange[];
  /** When a scheduled message was deleted through the API; the API no longer finds it, the control API shows it as `deleted`. */
  deletedAt?: number;
  /** For a reply: the id of the message it answers. */
  inReplyTo?: string;
  /** A timeline forced by the request (X-Emulator-Outcome), used for every leg. */
  outcomeOverride?: { status: LegStatus; afterMs: number }[];
}

/** What the control API shows as a message's status: its own, or `deleted` once deleted through the API. */
export type ShownStatus = MessageStatus | 'deleted';
export const shownStatuses: readonly ShownStatus[] = [...messageStatuses, 'deleted'];

/** The status the control API shows: `deleted` for a message deleted through the API, else its own. */
export function shownStatus(message: MessageRecord): ShownStatus {
  return message.deletedAt === undefined ? message.status : 'deleted';
}

/**
 * The status a message shows: scheduled while any leg still waits for the schedule time (legs leave
 * it together, one by one in the same instant), pending while any leg is pending, else submitted
 * while any leg is not final, else the outcome shared by the most legs (ties: the earliest recipient's).
 */
export function aggregateStatus(legs: readonly Leg[]): MessageStatus {
  let open: MessageStatus | undefined;
  for (const leg of legs) {
    if (leg.status === 'scheduled') return 'scheduled';
    if (leg.status === 'pending') return 'pending';
    if (!isFinal(leg.status)) open = 'submitted';
  }
  if (open) return open;
  // One leg (most messages) needs no counting: a Map per final status change was a quarter of what a 7-day jump
  // allocated (docs/decisions/0001-fast-lane.md).
  if (legs.length === 1) return (legs[0] as Leg).status;
  const counts = new Map<MessageStatus, number>();
  let best = legs[0]?.status ?? 'pending';
  for (const leg of legs) {
    const count = (counts.get(leg.status) ?? 0) + 1;
    counts.set(leg.status, count);
    if (count > (counts.get(best) ?? 0)) best = leg.status;
  }
  return best;
}
