/** A webhook event as the log keeps it and every reader sees it, its states, its tries, and the one way it is made. */

import type { DeliveryBehaviourName } from './deliveryBehaviour.js';
import type { Environment, MessageRecord } from './message.js';
import { formatInstant } from './time.js';

/** What a webhook tells: a leg's delivery status, or an inbound reply. */
export const webhookKinds = ['delivery', 'reply'] as const;
export type WebhookKind = (typeof webhookKinds)[number];
/** Where a webhook event stands: waiting for its next try, held back by a delivery behaviour (late, reorder), delivered, out of tries, or `skipped`: no webhook URL was set, so nothing was posted (the event is still logged). */
export const webhookStates = ['pending', 'delayed', 'delivered', 'failed', 'skipped'] as const;
export type WebhookState = (typeof webhookStates)[number];
/** The states a posted event ends in: answered with success, or out of tries. */
export type PostedState = Extract<WebhookState, 'delivered' | 'failed'>;

export interface WebhookAttempt {
  /** 1 for the first try. */
  number: number;
  /** Emulator clock time of the try. */
  at: string;
  url: string;
  /** HTTP status the receiver answered, when it answered. */
  status?: number;
  /** What went wrong when there was no answer: timeout or connection error. */
  error?: string;
  durationMs: number;
  ok: boolean;
}

export interface WebhookEvent {
  id: string;
  kind: WebhookKind;
  environment: Environment;
  account: string;
  messageId: string;
  recipient: string;
  status: string;
  /** Emulator clock time the event happened. */
  createdAt: string;
  url: string | null;
  state: WebhookState;
  payload: unknown;
  attempts: WebhookAttempt[];
  /** The delivery behaviours that touched this event, by name, in their table's order (docs/webhooks.md#delivery-behaviours). */
  behaviours: DeliveryBehaviourName[];
  /**
   * A duplicate (a re-send): the id of the event it repeats. It is logged as an event of its own, with its own tries,
   * but posted as a real re-send is: under that event's id (`X-Emulator-Event-Id`) with the same body.
   */
  duplicateOf?: string;
}

/** What an event is made of; `at` is the emulator time it happened (epoch ms). */
export interface WebhookEventFacts {
  id: string;
  kind: WebhookKind;
  message: MessageRecord;
  recipient: string;
  status: string;
  at: number;
  offsetMinutes: number;
  url: string | null;
  state: WebhookState;
  payload: unknown;
}

/** The one way an event is made, posted or skipped, so every event shows the same fields in the same order. */
export function webhookEvent(facts: WebhookEventFacts): WebhookEvent {
  return {
    id: facts.id,
    kind: facts.kind,
    environment: facts.message.environment,
    account: facts.message.apiKey,
    messageId: facts.message.id,
    recipient: facts.recipient,
    status: facts.status,
    createdAt: formatInstant(facts.at, facts.offsetMinutes),
    url: facts.url,
    state: facts.state,
    payload: facts.payload,
    attempts: [],
    behaviours: [],
  };
}
