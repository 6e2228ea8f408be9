/** What the dispatcher asks before posting a notification: which delivery behaviours touch it (the scenario decides). */

import type { AppliedBehaviour } from '../domain/deliveryBehaviour.js';
import type { MessageRecord } from '../domain/message.js';
import type { WebhookKind } from '../domain/webhookEvent.js';

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
