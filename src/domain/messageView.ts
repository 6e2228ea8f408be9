/** How a message shows outside the engine (control API, events, the inbox): everything, legs and history included. */

import {
  type Environment,
  type MessageRecord,
  type MessageStatus,
  type ShownStatus,
  type StatusChange,
  shownStatus,
} from './message.js';
import { type Encoding, countSegments, ucs2Trigger } from './segments.js';
import { formatInstant } from './time.js';

export interface ChangeView {
  status: MessageStatus;
  at: string;
}

/** One recipient's leg: its status, what happened, and the planned changes still to come. */
export interface LegView {
  recipient: string;
  status: MessageStatus;
  history: ChangeView[];
  upcoming: ChangeView[];
}

export interface MessageView {
  id: string;
  type: MessageRecord['type'];
  environment: Environment;
  account: string;
  recipient: string[];
  message: string;
  /** Segments per recipient, the encoding, and the character that forced UCS-2 (null for GSM-7). */
  segments: number;
  encoding: Encoding;
  ucs2_trigger: string | null;
  client_reference: string | null;
  schedule: string | null;
  /** The message's status; `deleted` for a scheduled message deleted through the API (the control API keeps showing it). */
  status: ShownStatus;
  credit: number;
  creation_date: string;
  delivery_date: string | null;
  /** When the message was deleted through the API (only for status `deleted`). */
  deleted_at?: string;
  in_reply_to?: string;
  history: ChangeView[];
  legs: LegView[];
}

export function messageView(message: MessageRecord, offsetMinutes: number): MessageView {
  const time = (ms: number | null) => (ms === null ? null : formatInstant(ms, offsetMinutes));
  const changes = (list: readonly StatusChange[]) =>
    list.map((change) => ({ status: change.status, at: formatInstant(change.at, offsetMinutes) }));
  const { segments, encoding } = countSegments(message.text);
  const view: MessageView = {
    id: message.id,
    type: message.type,
    environment: message.environment,
    account: message.apiKey,
    recipient: [...message.recipients],
    message: message.text,
    segments,
    encoding,
    ucs2_trigger: ucs2Trigger(message.text) ?? null,
    client_reference: message.clientReference,
    schedule: time(message.scheduleAt),
    status: shownStatus(message),
    credit: message.credit,
    creation_date: formatInstant(message.createdAt, offsetMinutes),
    delivery_date: time(message.deliveredAt),
    history: changes(message.history),
    legs: message.legs.map((leg) => ({
      recipient: leg.recipient,
      status: leg.status,
      history: changes(leg.history),
      upcoming: changes(leg.plan),
    })),
  };
  if (message.deletedAt !== undefined) view.deleted_at = formatInstant(message.deletedAt, offsetMinutes);
  if (message.inReplyTo !== undefined) view.in_reply_to = message.inReplyTo;
  return view;
}
