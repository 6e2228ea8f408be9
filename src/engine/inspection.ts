/** How the control API shows accounts and messages: everything, legs and history included. */

import type { MessageRecord, StatusChange } from '../domain/message.js';
import { type Encoding, countSegments, ucs2Trigger } from '../domain/segments.js';
import { formatInstant } from '../domain/time.js';
import type { Account } from '../state/store.js';

export interface AccountView {
  apiKey: string;
  signingSecret: string;
  scopes: string[];
  live: { balance: number; webhookUrl: string | null; optOuts: string[]; messages: number };
  sandbox: { balance: number; webhookUrl: string | null; optOuts: string[]; messages: number };
}

export function accountView(account: Account): AccountView {
  const wallet = (environment: 'live' | 'sandbox') => {
    const state = account.environments[environment];
    return { balance: state.balance, webhookUrl: state.webhookUrl, optOuts: [...state.optOuts], messages: state.messages.length };
  };
  return { apiKey: account.apiKey, signingSecret: account.signingSecret, scopes: [...account.scopes], live: wallet('live'), sandbox: wallet('sandbox') };
}

export interface ChangeView {
  status: string;
  at: string;
}

export interface MessageView {
  id: string;
  type: string;
  environment: string;
  account: string;
  recipient: string[];
  message: string;
  /** Segments per recipient, the encoding, and the character that forced UCS-2 (null for GSM-7). */
  segments: number;
  encoding: Encoding;
  ucs2_trigger: string | null;
  client_reference: string | null;
  schedule: string | null;
  status: string;
  credit: number;
  creation_date: string;
  delivery_date: string | null;
  in_reply_to?: string;
  history: ChangeView[];
  legs: { recipient: string; status: string; history: ChangeView[]; upcoming: ChangeView[] }[];
}

export function messageView(message: MessageRecord, offsetMinutes: number): MessageView {
  const time = (ms: number | null) => (ms === null ? null : formatInstant(ms, offsetMinutes));
  const changes = (list: readonly StatusChange[]) => list.map((change) => ({ status: change.status, at: formatInstant(change.at, offsetMinutes) }));
  const { segments, encoding } = countSegments(message.text);
  const view: MessageView = {
    id: message.id,
    type: message.type,
    environment: message.environment,
    account: message.apiKey,
    recipient: message.recipients,
    message: message.text,
    segments,
    encoding,
    ucs2_trigger: ucs2Trigger(message.text) ?? null,
    client_reference: message.clientReference,
    schedule: time(message.scheduleAt),
    status: message.status,
    credit: message.credit,
    creation_date: formatInstant(message.createdAt, offsetMinutes),
    delivery_date: time(message.deliveredAt),
    history: changes(message.history),
    legs: message.legs.map((leg) => ({ recipient: leg.recipient, status: leg.status, history: changes(leg.history), upcoming: changes(leg.plan) })),
  };
  if (message.inReplyTo !== undefined) view.in_reply_to = message.inReplyTo;
  return view;
}
