/**
 * The battery check-receiver posts to a webhook receiver: realistic deliveries, each check from fresh message ids,
 * rendered by the dispatcher's own rendering (renderMessage) so the payloads are exactly what the emulator posts.
 */

import { defaultEnvironment } from '../domain/environment.js';
import type { LegStatus, MessageRecord } from '../domain/message.js';
import { finalStatuses } from '../domain/message.js';
import { renderMessage } from '../domain/representation.js';
import { createRandom, type Random } from '../state/random.js';

/** The checks, in the order they run. */
export const receiverCheckNames = [
  'statuses',
  'reply',
  'stop-reply',
  'duplicate',
  'out-of-order',
  'late',
  'orphan',
  'unknown-fields',
  'long-message',
  'non-ascii',
  'burst',
] as const;
export type ReceiverCheckName = (typeof receiverCheckNames)[number];

/** One post: the event id the headers carry, the payload, and what it is, for the report. */
export interface CheckDelivery {
  eventId: string;
  payload: Record<string, unknown>;
  about: string;
  /** This post's own expectation, where it differs from its check's (the repeat of a duplicate). */
  expects?: Expectation;
  /** The message whose state the post changes, and to what: what a state hook is asked about afterwards. */
  state?: DeliveryState;
}

/** A notification's place in its message's story: the message, the status it reports, and how far along that is. */
export interface DeliveryState {
  message: string;
  clientReference: string;
  status: LegStatus;
  /** 0 for submitted, 1 for an outcome: a later step is newer, whatever order the posts arrived in. */
  step: number;
}

/** `ok`: the answer must be 200 (a valid delivery); `no-server-error`: any answer but a 5xx (a receiver may refuse it). */
export type Expectation = 'ok' | 'no-server-error';

export interface ReceiverCheck {
  name: ReceiverCheckName;
  /** What it sends, in a line. */
  sends: string;
  /** What each post must get, unless the post says otherwise. */
  expects: Expectation;
  deliveries: CheckDelivery[];
  /** Posted all at once rather than one after another. */
  together?: boolean;
}

/** Where the payloads' links point: the emulator's default address (a receiver never follows them). */
const renderContext = { apiBase: 'http://127.0.0.1:2727/v1', offsetMinutes: 120 };
const hour = 3_600_000;

/** Builds the battery for `now`; the same seed gives the same ids and payloads, byte for byte. */
export function receiverChecks(seed: string, now: number): ReceiverCheck[] {
  const random = createRandom(`check-receiver:${seed}`);
  const apiKey = `pk_check_${random.uuid().slice(0, 8)}`;
  const sent = (text: string, createdAt = now - 5_000): MessageRecord => ({
    id: random.uuid(),
    type: 'sms',
    environment: defaultEnvironment,
    apiKey,
    recipients: ['27831234567'],
    text,
    clientReference: `order-${random.uuid().slice(0, 8)}`,
    scheduleAt: null,
    status: 'pending',
    credit: 1,
    createdAt,
    deliveredAt: null,
    legs: [],
    history: [],
  });
  const notify = (message: MessageRecord, status: LegStatus, at = now): CheckDelivery => {
    const final = (finalStatuses as readonly string[]).includes(status);
    const shown = { ...message, status, deliveredAt: final ? at : null };
    return {
      eventId: `evt_${random.uuid()}`,
      payload: renderMessage(shown, renderContext, undefined, {
        recipient: message.recipients[0] as string,
        status,
      }) as never,
      about: `${status} of ${message.id}`,
      state: {
        message: message.id,
        clientReference: message.clientReference as string,
        status,
        step: final ? 1 : 0,
      },
    };
  };
  const reply = (text: string): CheckDelivery => {
    const original = sent('Your order has shipped. Reply STOP to opt out.');
    const answer: MessageRecord = {
      ...sent(text),
      id: random.uuid(),
      type: 'sms-reply',
      status: 'delivered',
      deliveredAt: now,
    };
    answer.clientReference = original.clientReference;
    return {
      eventId: `evt_${random.uuid()}`,
      payload: renderMessage(answer, renderContext) as never,
      about: `reply "${text}" to ${original.id}`,
    };
  };
  const inOrder = (message: MessageRecord, outcome: LegStatus = 'delivered'): CheckDelivery[] => [
    notify(message, 'submitted', message.createdAt + 1_000),
    notify(message, outcome),
  ];

  const duplicated = sent('Your code is 4821');
  const [submitted, delivered] = inOrder(duplicated) as [CheckDelivery, CheckDelivery];
  const reordered = sent('Your parcel is out for delivery');
  const stale = sent('Your table is ready', now - 6 * hour);
  const withExtras = inOrder(sent('Thanks for your order')).map((delivery) => ({
    ...delivery,
    payload: { ...delivery.payload, carrier: 'Vodacom', segments: 1, network: { mcc: '655', mnc: '01' } },
    about: `${delivery.about}, with fields the spec does not list`,
  }));

  return [
    {
      name: 'statuses',
      sends: `each outcome (${finalStatuses.join(', ')}) of a message of its own, after its submitted`,
      expects: 'ok',
      deliveries: finalStatuses.flatMap((outcome) => inOrder(sent(`Outcome ${outcome}`), outcome)),
    },
    {
      name: 'reply',
      sends: 'an inbound reply to a message',
      expects: 'ok',
      deliveries: [reply('Yes please, 10:00 suits me')],
    },
    {
      name: 'stop-reply',
      sends: 'an inbound STOP reply (the number opts out)',
      expects: 'ok',
      deliveries: [reply('STOP')],
    },
    {
      name: 'duplicate',
      sends: 'the same delivered notification twice, same event id (a gateway re-sends when an answer is lost)',
      expects: 'ok',
      deliveries: [
        submitted,
        delivered,
        { ...delivered, about: `${delivered.about}, again`, expects: 'no-server-error' },
      ],
    },
    {
      name: 'out-of-order',
      sends: "a message's delivered notification before its submitted one",
      expects: 'no-server-error',
      deliveries: [...inOrder(reordered)].reverse(),
    },
    {
      name: 'late',
      sends: 'a delivery receipt six hours after the message was sent',
      expects: 'ok',
      deliveries: [notify(stale, 'submitted', stale.createdAt + 1_000), notify(stale, 'delivered', now)],
    },
    {
      name: 'orphan',
      sends: 'a delivered notification for an id the app never sent',
      expects: 'no-server-error',
      // Not one of the app's messages: what a receiver keeps of it is its own affair, so no state is asked for.
      deliveries: [{ ...notify(sent('Not one of yours'), 'delivered'), state: undefined }],
    },
    {
      name: 'unknown-fields',
      sends: 'notifications with fields the spec does not list',
      expects: 'ok',
      deliveries: withExtras,
    },
    {
      name: 'long-message',
      sends: 'a 440-character message (three segments)',
      expects: 'ok',
      deliveries: inOrder(sent(longText(random))),
    },
    {
      name: 'non-ascii',
      sends: 'a message with accents, symbols and emoji (UCS-2)',
      expects: 'ok',
      deliveries: inOrder(sent('Olá José! Café ☕ at 10:00 — see you 👋🏽 «ça marche»')),
    },
    {
      name: 'burst',
      sends: "100 submitted notifications at once (a campaign's first second)",
      expects: 'ok',
      together: true,
      deliveries: Array.from({ length: 100 }, (_, index) => notify(sent(`Campaign message ${index + 1}`), 'submitted')),
    },
  ];
}

function longText(random: Random): string {
  const words = ['delivery', 'order', 'window', 'tomorrow', 'between', 'driver', 'parcel', 'reply', 'confirm', 'today'];
  let text = '';
  while (text.length < 440) text += `${words[Math.floor(random.next() * words.length)]} `;
  return text.slice(0, 440);
}
