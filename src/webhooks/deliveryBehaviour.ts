/** What the dispatcher asks before posting a notification, and the behaviours it carries out (decided by the scenario). */

import type { MessageRecord } from '../domain/message.js';
import type { WebhookKind } from '../domain/webhookEvent.js';

/**
 * The most times one notification is posted, however many `duplicate` behaviours (and `chaos.duplicateRate`) match it,
 * the account's and the emulator's together: the notification and at most 9 copies (docs/webhooks.md).
 */
export const maxDeliveriesPerNotification = 10;

/** What a real gateway does to its notifications, one behaviour per scenario rule (docs/webhooks.md#delivery-behaviours). */
export const deliveryBehaviourNames = ['duplicate', 'reorder', 'late', 'orphan', 'answer-ignored'] as const;
export type DeliveryBehaviourName = (typeof deliveryBehaviourNames)[number];

/** A behaviour as the dispatcher applies it. */
export interface AppliedBehaviour {
  name: DeliveryBehaviourName;
  /** duplicate: deliveries in all; answer-ignored: answers ignored. */
  times: number;
  /** late: how long the notification is held, in virtual ms. */
  afterMs: number;
}

/** One notification about to be posted. */
export interface NotificationSubject {
  kind: WebhookKind;
  message: MessageRecord;
  recipient: string;
  /** The leg's status, or `reply`. */
  status: string;
}

/** Decides the behaviours of one notification; none by default. */
export type BehaviourDecider = (subject: NotificationSubject) => readonly AppliedBehaviour[];
