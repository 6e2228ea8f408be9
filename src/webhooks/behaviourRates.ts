/**
 * The older rate options (`webhookDuplicateRate`, `webhookDelayRate`, `webhookReorderRate`, `webhookDelay`, and the
 * `webhooks.chaos` control operations): an alias for three emulator-wide delivery behaviours with a probability,
 * `duplicate`, `late` (for `webhookDelay`) and `reorder`, decided from the seeded generator and carried out as a
 * scenario's are (docs/webhooks.md#delivery-behaviours).
 */

import { type AppliedBehaviour, behaviourTouches, defaultTimes } from '../domain/deliveryBehaviour.js';
import type { Random } from '../state/random.js';
import type { NotificationSubject } from './behaviourDecider.js';

/** The rates from 0 to 1, and how long `late` holds a notification (virtual ms). */
export interface WebhookChaos {
  duplicateRate: number;
  delayRate: number;
  reorderRate: number;
  delayMs: number;
}

export class BehaviourRates {
  private rates: WebhookChaos;

  constructor(
    /** The rates at start-up, which a reset restores. */
    private readonly start: WebhookChaos,
    private readonly random: Random,
  ) {
    this.rates = { ...start };
  }

  /** Changes the rates given; the others keep their value. Answers the rates in force. */
  configure(rates: Partial<WebhookChaos>): WebhookChaos {
    this.rates = { ...this.rates, ...rates };
    return this.settings();
  }

  settings(): WebhookChaos {
    return { ...this.rates };
  }

  reset(): void {
    this.rates = { ...this.start };
  }

  /** The behaviours the rates draw for one notification; a rate of 0 draws nothing, so the generator is untouched. */
  decide(subject: NotificationSubject): AppliedBehaviour[] {
    const { duplicateRate, delayRate, reorderRate, delayMs } = this.rates;
    const applied: AppliedBehaviour[] = [];
    const drawn = (rate: number): boolean => rate > 0 && this.random.next() < rate;
    if (drawn(duplicateRate)) applied.push({ name: 'duplicate', times: defaultTimes('duplicate'), afterMs: 0 });
    if (behaviourTouches('reorder', subject.status) && drawn(reorderRate))
      applied.push({ name: 'reorder', times: 1, afterMs: 0 });
    if (drawn(delayRate)) applied.push({ name: 'late', times: 1, afterMs: delayMs });
    return applied;
  }
}
