/** The API's resources as the client and a webhook handler see them: messages, replies, lists, balance, errors, webhook payloads. */

import type { ErrorCode } from '../domain/errors.js';
import type { Link } from '../domain/links.js';
import type { MessageStatus } from '../domain/message.js';
import type { MessageJson } from '../domain/representation.js';

export type { Link, MessageStatus };

/** A sent or scheduled message (`type: "sms"`) as `send`, `schedule`, `edit` and `get` answer it. */
export interface SmsMessage extends MessageJson {
  type: 'sms';
}

/** An inbound reply (`type: "sms-reply"`): `message` holds the reply text, `recipient` the number that replied. */
export interface SmsReply extends MessageJson {
  type: 'sms-reply';
}

/** A page of `GET /v1/messages`: newest first, at most `limit` items. */
export interface MessageList {
  list: SmsMessage[];
  page: number;
  limit: number;
  total_pages: number;
  total_items: number;
  /** `self`, `next` (absent on the last page) and `last`. */
  _links: Partial<Record<'self' | 'next' | 'last', Link>>;
  documentation_url?: string;
}

/** `GET /v1/messages/balance`: the SMS credits of the authenticated account. */
export interface Balance {
  balance: number;
  documentation_url?: string;
}

/** `DELETE /v1/messages/{id}` of a scheduled message. */
export interface DeleteResult {
  status: 'successful';
}

/** The error object of a 4xx or 5xx answer (bare; the client also reads it wrapped in `{"error": …}`). */
export interface ErrorBody {
  /** The error code, e.g. `SIGNATURE_MISMATCH`. */
  message: ErrorCode | (string & {});
  description: string;
  documentation_url: string;
}

/** Webhook payload of a delivery notification: the message narrowed to one recipient, with that recipient's status. */
export type DeliveryNotification = Omit<SmsMessage, 'documentation_url'>;

/** Webhook payload of an inbound reply: `message` is the reply text, `client_reference` the one of the message it answers. */
export type ReplyNotification = Omit<SmsReply, 'documentation_url'>;

/** Either webhook payload; tell them apart by `type`. */
export type WebhookPayload = DeliveryNotification | ReplyNotification;
