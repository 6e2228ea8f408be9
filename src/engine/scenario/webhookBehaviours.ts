/**
 * Delivery behaviours: which of a scenario's `webhooks` rules touch one notification, decided in order with `match`,
 * `nth`/`every`, `probability` and `count` as faults are, from the seeded generator. Pure decisions: the dispatcher
 * carries them out.
 */

import { type AppliedBehaviour, behaviourTouches, defaultAfter, defaultTimes } from '../../domain/deliveryBehaviour.js';
import type { NotificationSubject } from '../../webhooks/behaviourDecider.js';
import { parseDuration } from '../../domain/time.js';
import type { Random } from '../../state/random.js';
import { inTurn } from './faults.js';
import { type Matcher, compileMatch } from './match.js';
import type { WebhookBehaviourSpec } from './schema.js';

interface BehaviourState {
  spec: WebhookBehaviourSpec;
  matches: Matcher;
  seen: number;
  remaining: number | undefined;
}

export class WebhookBehaviours {
  private states: BehaviourState[] = [];

  constructor(private readonly random: Random) {}

  get empty(): boolean {
    return this.states.length === 0;
  }

  load(specs: readonly WebhookBehaviourSpec[]): void {
    this.states = specs.map((spec) => ({ spec, matches: compileMatch(spec.match), seen: 0, remaining: spec.count }));
  }

  /** The behaviours that touch this notification, in the order the rules are listed. */
  decide(subject: NotificationSubject): AppliedBehaviour[] {
    const applied: AppliedBehaviour[] = [];
    for (const state of this.states) {
      const { spec } = state;
      if (state.remaining !== undefined && state.remaining <= 0) continue;
      if (spec.match.status !== undefined && spec.match.status !== subject.status) continue;
      // A reorder holds a leg's submitted notification back until the message's next one: it counts only those.
      if (!behaviourTouches(spec.behaviour, subject.status)) continue;
      if (
        !state.matches({
          message: subject.message,
          recipient: subject.recipient,
          environment: subject.message.environment,
        })
      )
        continue;
      if (!inTurn(state)) continue;
      if (spec.probability !== undefined && this.random.next() >= spec.probability) continue;
      if (state.remaining !== undefined) state.remaining -= 1;
      applied.push({
        name: spec.behaviour,
        times: spec.times ?? defaultTimes(spec.behaviour),
        afterMs: parseDuration(spec.after ?? defaultAfter(spec.behaviour)) as number,
      });
    }
    return applied;
  }
}
