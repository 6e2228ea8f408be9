/** The JSON shape of a message as the API and webhooks show it. */

import { type Link, messageLinks } from './links.js';
import type { MessageRecord, MessageStatus, MessageType } from './message.js';
import { formatInstant } from './time.js';

export interface MessageJson {
  id: string;
  type: MessageType;
  recipient: string[];
  message: string;
  client_reference: string | null;
  schedule: string | null;
  status: MessageStatus;
  credit: number;
  creation_date: string;
  delivery_date: string | null;
  _links: Record<string, Link>;
  documentation_url?: string;
}

export interface RenderContext {
  /** Origin plus environment prefix, e.g. `http://127.0.0.1:2727/v1`. */
  apiBase: string;
  offsetMinutes: number;
}

/** A delivery notification narrows the message to one recipient and shows that leg's status. */
export interface NotifiedLeg {
  recipient: string;
  status: MessageStatus;
}

export function renderMessage(
  message: MessageRecord,
  context: RenderContext,
  documentationUrl?: string,
  leg?: NotifiedLeg,
): MessageJson {
  const status = leg?.status ?? message.status;
  const json: MessageJson = {
    id: message.id,
    type: message.type,
    recipient: leg ? [leg.recipient] : message.recipients,
    message: message.text,
    client_reference: message.clientReference,
    schedule: message.scheduleAt === null ? null : formatInstant(message.scheduleAt, context.offsetMinutes),
    status,
    credit: message.credit,
    creation_date: formatInstant(message.createdAt, context.offsetMinutes),
    delivery_date: message.deliveredAt === null ? null : formatInstant(message.deliveredAt, context.offsetMinutes),
    _links: messageLinks(context.apiBase, message.id, status),
  };
  if (documentationUrl !== undefined) json.documentation_url = documentationUrl;
  return json;
}
