/** A webhook event as the log keeps it and every reader sees it, its states, its tries, and the one way it is made and shown. */

import { z } from 'zod';
import { deliveryBehaviourNames } from './deliveryBehaviour.js';
import { type MessageRecord, environments } from './message.js';
import { formatInstant } from './time.js';
import { maskUrlCredentials, maskUrlsInText } from './credentials.js';

/** What a webhook tells: a leg's delivery status, or an inbound reply. */
export const webhookKinds = ['delivery', 'reply'] as const;
export type WebhookKind = (typeof webhookKinds)[number];

/**
 * How many times one event may be redelivered. Each redelivery makes up to webhookRetries + 1 tries and keeps them in the
 * event's log entry, so without a cap a script (or a receiver that relays the post back into the control API) could
 * multiply one notification's tries and memory without end; 20 is more than any test redelivers one event.
 */
export const maxRedeliveries = 20;

/** Where a webhook event stands: waiting for its next try, held back by a delivery behaviour (late, reorder), delivered, out of tries, or `skipped`: no webhook URL was set, so nothing was posted (the event is still logged). */
export const webhookStates = ['pending', 'delayed', 'delivered', 'failed', 'skipped'] as const;
export type WebhookState = (typeof webhookStates)[number];
/** The states a posted event ends in: answered with success, or out of tries. */
export type PostedState = Extract<WebhookState, 'delivered' | 'failed'>;

/** The most bytes of a refused answer's body a try keeps (`answer`): enough for a handler's reason, bounded for the log. */
export const answerExcerptBytes = 200;

/** One try at posting an event, and what came back. */
export const webhookAttemptSchema = z.strictObject({
  /** 1 for the first try. */
  number: z.int(),
  /** Emulator clock time of the try. */
  at: z.string(),
  url: z.string(),
  /** HTTP status the receiver answered, when it answered. */
  status: z.int().optional(),
  /** The start of the body of an answer other than 200 (`answerExcerptBytes` at most), when it had one: the receiver's reason. */
  answer: z
    .string()
    .optional()
    .describe(
      `The start of the body of an answer other than 200 (${answerExcerptBytes} bytes at most), when it had one.`,
    ),
  /** What went wrong when there was no answer: timeout or connection error. */
  error: z.string().optional(),
  durationMs: z.number(),
  ok: z.boolean(),
});
export type WebhookAttempt = z.output<typeof webhookAttemptSchema>;

/** A webhook event as the log keeps it and the control API answers it. */
export const webhookEventSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(webhookKinds),
  environment: z.enum(environments),
  account: z.string(),
  messageId: z.string(),
  recipient: z.string(),
  status: z.string(),
  /** Emulator clock time the event happened. */
  createdAt: z.string(),
  url: z.string().nullable(),
  state: z.enum(webhookStates),
  payload: z.unknown().describe('The JSON body posted (the delivery or reply payload of the spec).'),
  attempts: z.array(webhookAttemptSchema),
  /** The delivery behaviours that touched this event, by name, in their table's order (docs/webhooks.md#delivery-behaviours). */
  behaviours: z
    .array(z.enum(deliveryBehaviourNames))
    .describe('The delivery behaviours that touched the event, by name, in the order of their table.'),
  /**
   * A duplicate (a re-send): the id of the event it repeats. It is logged as an event of its own, with its own tries,
   * but posted as a real re-send is: under that event's id (`X-Emulator-Event-Id`) with the same body.
   */
  duplicateOf: z
    .string()
    .describe('A duplicate: the id of the event it repeats, which it is posted under (X-Emulator-Event-Id).')
    .optional(),
});
export type WebhookEvent = z.output<typeof webhookEventSchema>;

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

/**
 * An event as it is shown (control API answers, the inbox, the timeline report): a password in its URLs, or quoted in a
 * try's error, masked (domain/credentials.ts). The log keeps the URL whole, since redelivery posts to it; an event
 * with no password anywhere is the logged object itself, not a copy.
 */
export function shownWebhookEvent(event: WebhookEvent): WebhookEvent {
  const hidden = (text: string | null | undefined): boolean => text != null && text.includes('@');
  if (
    !hidden(event.url) &&
    !event.attempts.some((attempt) => hidden(attempt.url) || hidden(attempt.error) || hidden(attempt.answer))
  )
    return event;
  return {
    ...event,
    url: event.url === null ? null : maskUrlCredentials(event.url),
    attempts: event.attempts.map((attempt) => ({
      ...attempt,
      url: maskUrlCredentials(attempt.url),
      ...(attempt.error === undefined ? {} : { error: maskUrlsInText(attempt.error) }),
      // A receiver's reason may quote a URL with its password (a kit's catcher naming the app it could not reach).
      ...(attempt.answer === undefined ? {} : { answer: maskUrlsInText(attempt.answer) }),
    })),
  };
}
