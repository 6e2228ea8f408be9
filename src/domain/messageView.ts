/** How a message shows outside the engine (control API, events, the inbox): everything, legs and history included. */

import { z } from 'zod';
import {
  type MessageRecord,
  type StatusChange,
  environments,
  messageStatuses,
  messageTypes,
  shownStatus,
  shownStatuses,
} from './message.js';
import { costTriggerSchema, explainCost } from './costExplanation.js';
import { encodings } from './segments.js';
import { formatInstant } from './time.js';

/** A status a message or leg took, and when (in the emulator's offset). */
export const changeViewSchema = z.strictObject({ status: z.enum(messageStatuses), at: z.string() });
export type ChangeView = z.output<typeof changeViewSchema>;

/** One recipient's leg: its status, what happened, and the planned changes still to come. */
export const legViewSchema = z.strictObject({
  recipient: z.string(),
  status: z.enum(messageStatuses),
  history: z.array(changeViewSchema),
  upcoming: z.array(changeViewSchema),
});
export type LegView = z.output<typeof legViewSchema>;

/** A message as the control API, the events and the inbox show it; its type and the control API's answer schema both derive from this. */
export const messageViewSchema = z.strictObject({
  id: z.string(),
  type: z.enum(messageTypes),
  environment: z.enum(environments),
  account: z.string(),
  recipient: z.array(z.string()),
  message: z.string(),
  /** Segments per recipient, the encoding, and the character that forced UCS-2 (null for GSM-7). */
  segments: z.int(),
  encoding: z.enum(encodings),
  ucs2_trigger: z.string().nullable(),
  /** Why it costs that, as `cost` explains a text: its units, and every character that forced UCS-2 with its position and what was meant. */
  units: z.int().describe('Septets for GSM-7, UTF-16 code units for UCS-2.'),
  triggers: z
    .array(costTriggerSchema)
    .describe('Every character that forced UCS-2, in text order, as `cost` names them (empty for a GSM-7 text).'),
  client_reference: z.string().nullable(),
  schedule: z.string().nullable(),
  /** The message's status; `deleted` for a scheduled message deleted through the API (the control API keeps showing it). */
  status: z.enum(shownStatuses),
  credit: z.int(),
  creation_date: z.string(),
  delivery_date: z.string().nullable(),
  /** When the message was deleted through the API (only for status `deleted`). */
  deleted_at: z.string().optional(),
  in_reply_to: z.string().optional(),
  history: z.array(changeViewSchema),
  legs: z.array(legViewSchema),
});
export type MessageView = z.output<typeof messageViewSchema>;

export function messageView(message: MessageRecord, offsetMinutes: number): MessageView {
  const time = (ms: number | null) => (ms === null ? null : formatInstant(ms, offsetMinutes));
  const changes = (list: readonly StatusChange[]) =>
    list.map((change) => ({ status: change.status, at: formatInstant(change.at, offsetMinutes) }));
  const { segments, encoding, units, triggers } = explainCost(message.text, { recipients: message.recipients.length });
  const view: MessageView = {
    id: message.id,
    type: message.type,
    environment: message.environment,
    account: message.apiKey,
    recipient: [...message.recipients],
    message: message.text,
    segments,
    encoding,
    ucs2_trigger: triggers[0]?.char ?? null,
    units,
    triggers,
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
