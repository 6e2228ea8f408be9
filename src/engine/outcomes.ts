/**
 * Delivery timelines, and the one chain that decides each leg's timeline, in a fixed order:
 * `X-Emulator-Outcome` header → opt-out (blist) → user decider → scenario rules → default timeline.
 */

import { ApiError } from '../domain/errors.js';
import { type Environment, type LegStatus, type MessageRecord, walkProblem } from '../domain/message.js';
import type { Account } from '../state/store.js';
import type { MessageView } from '../domain/messageView.js';
import type { ReadonlyDeep } from '../domain/readonlyDeep.js';
import type { AccountView } from './inspection.js';

/** One step of a leg's life: become `status` `afterMs` after the previous step. */
export interface TimelineStep {
  status: LegStatus;
  afterMs: number;
}

export type Timeline = readonly TimelineStep[];

/** What a user decider sees: read-only views of the message and account, never the live records. */
export interface OutcomeContext {
  readonly message: ReadonlyDeep<MessageView>;
  readonly recipient: string;
  readonly environment: Environment;
  readonly account: ReadonlyDeep<AccountView>;
}

/** Chooses the timeline of one leg; undefined means "no opinion": the next layer decides. */
export type OutcomeDecider = (context: OutcomeContext) => Timeline | undefined;

/**
 * One layer of the chain, prepared once per message: it answers undefined when it has no opinion
 * on any leg of this message (so it costs nothing per leg), else a per-recipient decider.
 */
export type DecisionLayer = (
  message: MessageRecord,
  account: Account,
) => ((recipient: string) => Timeline | undefined) | undefined;

/** The layers in the order they are asked; the default timeline answers when none has an opinion. */
export const decisionLayers = ['header', 'optOut', 'user', 'scenario'] as const;
export type DecisionLayerName = (typeof decisionLayers)[number];

/** `pending` → `submitted` after 1 s → `delivered` 4 s later, when nothing else decides. */
export const defaultTimeline: Timeline = [
  { status: 'submitted', afterMs: 1_000 },
  { status: 'delivered', afterMs: 4_000 },
];

/** Why a timeline is not a legal walk from `pending` with non-negative waits; undefined when it is. */
export function timelineProblem(timeline: unknown): string | undefined {
  if (!Array.isArray(timeline) || timeline.length === 0)
    return 'expected a non-empty array of { status, afterMs } steps';
  const steps = timeline.map((step: unknown) => (step ?? {}) as Partial<TimelineStep>);
  const wait = steps.findIndex(
    ({ afterMs }) => !(typeof afterMs === 'number' && afterMs >= 0 && Number.isFinite(afterMs)),
  );
  const walk = walkProblem(steps.map(({ status }) => String(status)));
  if (wait >= 0 && (walk === undefined || wait <= walk.index))
    return `step ${wait}: afterMs must be a number of 0 or more`;
  return walk && `step ${walk.index}: ${walk.problem}`;
}

export class OutcomeChain {
  private readonly layers: (DecisionLayer | undefined)[] = decisionLayers.map(() => undefined);

  /** Puts `layer` in its place in the chain (undefined empties it); the other layers stay as they are. */
  use(name: DecisionLayerName, layer: DecisionLayer | undefined): void {
    this.layers[decisionLayers.indexOf(name)] = layer;
  }

  /** The timeline of each leg of `message`, in leg order: the first layer with an opinion wins. */
  decide(message: MessageRecord, account: Account): Timeline[] {
    const prepared: ((recipient: string) => Timeline | undefined)[] = [];
    for (const layer of this.layers) {
      const decide = layer?.(message, account);
      if (decide) prepared.push(decide);
    }
    return message.legs.map((leg) => {
      for (const decide of prepared) {
        const timeline = decide(leg.recipient);
        if (timeline) return timeline;
      }
      return defaultTimeline;
    });
  }
}

/** The user layer around a decider: it sees views made once per message, and an illegal answer is refused with a clear reason. */
export function userLayer(
  decider: OutcomeDecider,
  views: { message(message: MessageRecord): MessageView; account(account: Account): AccountView },
): DecisionLayer {
  return (message, account) => {
    const shared = {
      message: views.message(message),
      environment: message.environment,
      account: views.account(account),
    };
    return (recipient) => {
      const timeline = decider({ ...shared, recipient });
      if (timeline === undefined) return undefined;
      const problem = timelineProblem(timeline);
      if (problem) {
        throw new ApiError(
          'INTERNAL_SERVER_ERROR',
          `The outcome decider (setOutcomeDecider) returned an illegal timeline for ${recipient}: ${problem}.`,
        );
      }
      return timeline;
    };
  };
}
