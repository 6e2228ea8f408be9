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
import type { Clock } from '../state/clock.js';
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
 * becomes `expired` at its end, and a timeline that never ends in an outcome expires too.
 */
export function planLeg(timeline: Timeline, start: number, validityMs: number): StatusChange[] {
  const expiresAt = addDuration(start, validityMs);
  const plan: StatusChange[] = [];
  let at = start;
  for (const step of timeline) {
    at = addDuration(at, step.afterMs);
    if (at > expiresAt) break;
    plan.push(statusChange(step.status, at));
    if (isFinal(step.status)) return plan;
  }
  plan.push(statusChange('expired', expiresAt));
  return plan;
}

export class Lifecycle {
  /** The timer that sends each scheduled message, so edit and delete can move or cancel it. */
  private readonly scheduleTimers = new Map<MessageRecord, Timer>();

  constructor(
    private readonly clock: Clock,
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
    else this.deliver(message, timelines);
  }

  /** Re-arms every timer a restored message needs (snapshot import). */
  resume(account: Account, message: MessageRecord): void {
    if (message.deletedAt !== undefined) return;
    if (message.status === 'scheduled') return this.armSchedule(account, message);
    for (const leg of message.legs) this.armNextStep(message, leg);
  }

  /** Re-arms the schedule timer after an edit. */
  rescheduled(account: Account, message: MessageRecord): void {
    this.disarm(message);
    this.armSchedule(account, message);
  }

  /** Forgets the timer of a deleted scheduled message. */
  disarm(message: MessageRecord): void {
    const timer = this.scheduleTimers.get(message);
    if (timer) this.clock.cancel(timer);
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
  force(message: MessageRecord, legs: readonly Leg[], status: MessageStatus): void {
    this.disarm(message);
    for (const leg of legs) {
      leg.plan = noSteps;
      this.setLegStatus(message, leg, status);
      if (!isFinal(status)) {
        leg.plan = planLeg([], this.clock.now(), this.settings.validityMs);
        this.armNextStep(message, leg);
      }
    }
  }

  /** Moves one leg to `status` at the current clock time; an illegal move is a bug and throws. */
  setLegStatus(message: MessageRecord, leg: Leg, status: MessageStatus): void {
    const problem = transitionProblem(leg.status, status);
    if (problem) throw new Error(`sms-emulator: message ${message.id}, recipient ${leg.recipient}: ${problem}.`);
    const at = this.clock.now();
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
    const due = message.scheduleAt ?? this.clock.now();
    this.scheduleTimers.set(
      message,
      this.clock.at(due, () => this.sendScheduled(account, message), 'scheduled send'),
    );
  }

  private sendScheduled(account: Account, message: MessageRecord): void {
    this.scheduleTimers.delete(message);
    const wallet = account.environments[message.environment];
    const cost = sendCost(message.text, message.recipients.length, this.settings.pricing);
    if (!covers(wallet, cost)) {
      for (const leg of message.legs) this.setLegStatus(message, leg, 'failed');
      return;
    }
    let timelines: Timeline[];
    try {
      timelines = this.decide(account, message);
    } catch (error) {
      // A decider that throws at send time must not strand the message as `scheduled` with no timer:
      // it fails, uncharged, like a send the balance no longer covers, and the clock records the incident.
      for (const leg of message.legs) this.setLegStatus(message, leg, 'failed');
      throw new Error(`message ${message.id} failed, nothing charged: the outcome chain threw: ${(error as Error).message}`, { cause: error });
    }
    charge(wallet, cost);
    message.credit = cost;
    for (const leg of message.legs) this.setLegStatus(message, leg, 'pending');
    this.deliver(message, timelines);
  }

  private deliver(message: MessageRecord, timelines: Timeline[]): void {
    const now = this.clock.now();
    message.legs.forEach((leg, index) => {
      leg.plan = planLeg(timelines[index] as Timeline, now, this.settings.validityMs);
      this.armNextStep(message, leg);
    });
  }

  /**
   * Walks the leg's plan on the clock, one timer at a time: each step arms the next when it fires. One
   * function per plan, not one per step (a clock jump fires hundreds of thousands, issue 11). The walk
   * ends when the plan is replaced (a forced or final status) or the message's account was removed or
   * reset since (its messages forgotten): the account object is compared rather than the message looked
   * up among every stored one, which was a tenth of a clock jump.
   */
  private armNextStep(message: MessageRecord, leg: Leg): void {
    const plan = leg.plan;
    const account = this.store.accounts.get(message.apiKey);
    const step = (): void => {
      if (leg.plan !== plan || this.store.accounts.get(message.apiKey) !== account) return;
      const next = plan.shift() as StatusChange;
      if (leg.status !== next.status) this.setLegStatus(message, leg, next.status);
      if (leg.plan === plan && plan[0]) this.clock.at(plan[0].at, step, 'leg status change');
    };
    if (plan[0]) this.clock.at(plan[0].at, step, 'leg status change');
  }
}
