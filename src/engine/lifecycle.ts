/** Drives messages through their lifecycle on the clock: schedule time, charging, and leg plans. */

import {
  type Leg,
  type MessageRecord,
  type MessageStatus,
  type StatusChange,
  aggregateStatus,
  appendChange,
  isFinal,
  noSteps,
  statusChange,
  transitionProblem,
} from '../domain/message.js';
import { type Pricing, sendCost } from '../domain/segments.js';
import { addDuration } from '../domain/time.js';
import type { EmulatorEmitter } from '../events.js';
import type { Timer } from '../state/timerQueue.js';
import type { Account, Store } from '../state/store.js';
import { charge, covers } from './accounts.js';
import type { OutcomeChain, Timeline } from './outcomes.js';

export interface LifecycleSettings {
  pricing: Pricing;
  validityMs: number;
}

/**
 * A leg's timeline as absolute status changes from `start`; anything past the validity period
 * becomes `expired` at its end, and a timeline that never ends in an outcome expires too. A timeline's own `expired`
 * step comes when it says, past the validity period too: a provider that counts its validity from `submitted`, or
 * over a longer period, expires legs later, and a replayed incident keeps those times.
 */
export function planLeg(timeline: Timeline, start: number, validityMs: number): StatusChange[] {
  const expiresAt = addDuration(start, validityMs);
  const plan: StatusChange[] = [];
  let at = start;
  for (const step of timeline) {
    at = addDuration(at, step.afterMs);
    if (at > expiresAt && step.status !== 'expired') break;
    plan.push(statusChange(step.status, at));
    if (isFinal(step.status)) return plan;
  }
  plan.push(statusChange('expired', expiresAt));
  return plan;
}

export class Lifecycle {
  /** The timer that sends each scheduled message (on its account's clock), so edit and delete can move or cancel it. */
  private readonly scheduleTimers = new Map<MessageRecord, Timer>();

  constructor(
    private readonly store: Store,
    private readonly events: EmulatorEmitter,
    private readonly settings: LifecycleSettings,
    private readonly outcomes: OutcomeChain,
  ) {}

  /** The timeline of each leg, from the outcome chain; it may throw, so it runs before anything is stored or charged. */
  decide(account: Account, message: MessageRecord): Timeline[] {
    return this.outcomes.decide(message, account);
  }

  /** Starts an accepted message: delivery legs now with the decided `timelines`, or a timer for its schedule time. */
  start(account: Account, message: MessageRecord, timelines: Timeline[] | undefined): void {
    if (timelines === undefined) this.armSchedule(account, message);
    else this.deliver(account, message, timelines);
  }

  /** Re-arms every timer a restored message needs (snapshot import). */
  resume(account: Account, message: MessageRecord): void {
    if (message.deletedAt !== undefined) return;
    if (message.status === 'scheduled') return this.armSchedule(account, message);
    for (const leg of message.legs) this.armNextStep(account, message, leg);
  }

  /** Re-arms the schedule timer after an edit. */
  rescheduled(account: Account, message: MessageRecord): void {
    this.disarm(account, message);
    this.armSchedule(account, message);
  }

  /** Forgets the timer of a deleted scheduled message. */
  disarm(account: Account, message: MessageRecord): void {
    const timer = this.scheduleTimers.get(message);
    if (timer) account.clock.cancel(timer);
    this.scheduleTimers.delete(message);
  }

  /** Forgets every schedule timer (reset); the clock's own queue is cleared by its owner. */
  clear(): void {
    this.scheduleTimers.clear();
  }

  /**
   * Moves legs to `status` now, as if it had happened (a forced outcome; the caller has checked each
   * move). Each leg's remaining plan is cancelled; a leg left open (`staged`, `submitted`) expires at
   * the end of the validity period from now. A scheduled message no longer goes out.
   */
  force(account: Account, message: MessageRecord, legs: readonly Leg[], status: MessageStatus): void {
    this.disarm(account, message);
    const now = account.clock.now();
    for (const leg of legs) {
      leg.plan = noSteps;
      this.setLegStatus(message, leg, status, now);
      if (!isFinal(status)) {
        leg.plan = planLeg([], now, this.settings.validityMs);
        this.armNextStep(account, message, leg);
      }
    }
  }

  /** Moves one leg to `status` at `at` (its account's clock time now); an illegal move is a bug and throws. */
  private setLegStatus(message: MessageRecord, leg: Leg, status: MessageStatus, at: number): void {
    const problem = transitionProblem(leg.status, status);
    if (problem) throw new Error(`sms-emulator: message ${message.id}, recipient ${leg.recipient}: ${problem}.`);
    const change = statusChange(status, at);
    const before = leg.history;
    leg.status = status;
    leg.history = appendChange(before, change);
    if (isFinal(status)) {
      message.deliveredAt = at;
      leg.plan = noSteps;
    }
    const aggregate = aggregateStatus(message.legs);
    if (aggregate !== message.status) {
      message.status = aggregate;
      this.store.statusChanged(message);
      // Histories and change records are never mutated, so a message shares what it has in common with its
      // leg: the change when they agree, and the whole history while it is the leg's (one recipient).
      if (aggregate !== status) message.history = appendChange(message.history, statusChange(aggregate, at));
      else message.history = message.history === before ? leg.history : appendChange(message.history, change);
    }
    this.events.emit('leg.status', { message, leg, status, at });
  }

  private armSchedule(account: Account, message: MessageRecord): void {
    const { clock } = account;
    const due = message.scheduleAt ?? clock.now();
    this.scheduleTimers.set(
      message,
      clock.at(due, () => this.sendScheduled(account, message), 'scheduled send'),
    );
  }

  private sendScheduled(account: Account, message: MessageRecord): void {
    this.scheduleTimers.delete(message);
    const wallet = account.environments[message.environment];
    const cost = sendCost(message.text, message.recipients.length, this.settings.pricing);
    const now = account.clock.now();
    if (!covers(wallet, cost)) {
      for (const leg of message.legs) this.setLegStatus(message, leg, 'failed', now);
      return;
    }
    let timelines: Timeline[];
    try {
      timelines = this.decide(account, message);
    } catch (error) {
      // A decider that throws at send time must not strand the message as `scheduled` with no timer:
      // it fails, uncharged, like a send the balance no longer covers, and the clock records the incident.
      for (const leg of message.legs) this.setLegStatus(message, leg, 'failed', now);
      throw new Error(
        `message ${message.id} failed, nothing charged: the outcome chain threw: ${(error as Error).message}`,
        { cause: error },
      );
    }
    charge(wallet, cost);
    message.credit = cost;
    for (const leg of message.legs) this.setLegStatus(message, leg, 'pending', now);
    this.deliver(account, message, timelines);
  }

  private deliver(account: Account, message: MessageRecord, timelines: Timeline[]): void {
    const now = account.clock.now();
    message.legs.forEach((leg, index) => {
      leg.plan = planLeg(timelines[index] as Timeline, now, this.settings.validityMs);
      this.armNextStep(account, message, leg);
    });
  }

  /**
   * Walks the leg's plan on the clock, one timer at a time: each step arms the next when it fires. One function per
   * plan, not one per step (a clock jump fires hundreds of thousands, docs/decisions/0001-fast-lane.md). The walk ends
   * when the plan is replaced (a forced or final status) or the message's account was removed or reset since (its
   * messages forgotten): the account object is compared rather than the message looked up among every stored one, which
   * was a tenth of a clock jump. The steps run on the account's clock.
   */
  private armNextStep(account: Account, message: MessageRecord, leg: Leg): void {
    const plan = leg.plan;
    const { clock } = account;
    const step = (): void => {
      if (leg.plan !== plan || this.store.accounts.get(message.apiKey) !== account) return;
      const next = plan.shift() as StatusChange;
      if (leg.status !== next.status) this.setLegStatus(message, leg, next.status, clock.now());
      if (leg.plan === plan && plan[0]) clock.at(plan[0].at, step, 'leg status change');
    };
    if (plan[0]) clock.at(plan[0].at, step, 'leg status change');
  }
}
