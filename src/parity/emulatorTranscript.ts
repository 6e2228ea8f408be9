/**
 * A transcript of what a running emulator saw: its request journal, its webhook log and its inbound replies, read
 * through the control API (in process or over HTTP), merged in virtual-time order and templated.
 */

import type { ControlHandle, HandleMode } from '../control/handle.js';
import type { Page } from '../domain/list.js';
import type { Environment } from '../domain/environment.js';
import { apiEnvironment } from '../domain/environment.js';
import type { JournalEntry } from '../journal/requestJournal.js';
import type { WebhookEvent } from '../domain/webhookEvent.js';
import type { MessageView } from '../domain/messageView.js';
import { chargeableText, recipientCount } from '../domain/fields.js';
import { sendCost } from '../domain/segments.js';
import { settings } from '../options.js';
import { basicCredentials, maskAuthorization } from '../domain/credentials.js';
import { Bindings } from './bindings.js';
import { type TranscriptEvent, type TranscriptHeader, formatTranscript, transcriptVersion } from './transcript.js';

export interface EmulatorTranscriptOptions {
  /** The account whose session it is (default: the account of the first request in the journal). */
  account?: string;
}

/** Raw events before templating: the instant, an order within an instant, and what to write. */
interface Raw {
  at: number;
  rank: number;
  seq: number;
  make: (t: number) => TranscriptEvent;
}

const rankOf: Record<TranscriptEvent['type'], number> = {
  account: 0,
  // A journaled request and its answer share an instant and keep their journal order.
  request: 1,
  answer: 1,
  reply: 3,
  webhook: 4,
  'webhook-answer': 5,
};

async function allPages<T>(read: (page: number) => Page<T> | Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await read(page);
    items.push(...answer.items);
    if (answer.items.length === 0 || items.length >= answer.total) return items;
  }
}

/** `+02:00` from `2026-11-22T09:00:00+02:00`. */
function zoneOf(time: string | undefined): string {
  const match = time === undefined ? null : /(Z|[+-]\d{2}:\d{2})$/.exec(time);
  return match?.[1] ?? 'Z';
}

/** The journal's signature facts as a header: none when it was missing, a placeholder for a valid or a wrong one. */
function signatureHeader(entry: JournalEntry): Record<string, string> {
  if (entry.code === 'SIGNATURE_MISSING') return {};
  if (entry.code === 'SIGNATURE_MISMATCH') return { signature: '{{signature:invalid}}' };
  const signed = entry.method === 'POST' || entry.method === 'PATCH';
  return signed ? { signature: '{{signature}}' } : {};
}

/** The transcript of one account's session as the emulator behind `handle` journaled and logged it. */
export async function emulatorTranscript<M extends HandleMode>(
  handle: ControlHandle<M>,
  options: EmulatorTranscriptOptions = {},
): Promise<string> {
  const journal = (
    await allPages((page) =>
      handle.requests.find({ ...(options.account ? { account: options.account } : {}), page, limit: 1000 }),
    )
  ).reverse();
  const account = options.account ?? journal.find((entry) => entry.account !== null)?.account ?? undefined;
  const entries = account === undefined ? journal : journal.filter((entry) => entry.account === account);
  const webhooks =
    account === undefined
      ? []
      : await allPages<WebhookEvent>((page) => handle.webhooks.list({ account, page, limit: 1000 }));
  const replies =
    account === undefined
      ? []
      : await allPages<MessageView>((page) => handle.replies.list({ account, page, limit: 1000 }));
  const raws: Raw[] = [];
  let seq = 0;
  const push = (at: number, type: TranscriptEvent['type'], make: Raw['make']): void => {
    raws.push({ at, rank: rankOf[type], seq: seq++, make });
  };
  const used = new Set<Environment>();
  entries.forEach((entry, index) => {
    const at = Date.parse(entry.time);
    used.add(entry.environment);
    const id = `r${index + 1}`;
    push(at, 'request', (t) => requestOf(entry, id, t));
    push(at, 'answer', (t) => ({
      t,
      type: 'answer',
      request: id,
      status: entry.status,
      ...(entry.responseBody === null ? {} : { body: entry.responseBody }),
    }));
  });
  let posts = 0;
  for (const event of webhooks) {
    if (event.attempts.length === 0) {
      const id = `w${++posts}`;
      push(Date.parse(event.createdAt), 'webhook', (t) => ({
        t,
        type: 'webhook',
        id,
        attempt: 1,
        payload: event.payload,
        signatureValid: null,
        posted: false,
      }));
      continue;
    }
    for (const attempt of event.attempts) {
      const id = `w${++posts}`;
      // A first try belongs at the notification's own time (a clock jump tries it later, at the jump's end).
      const at =
        attempt.number === 1
          ? Date.parse(event.createdAt)
          : Math.max(Date.parse(attempt.at), Date.parse(event.createdAt));
      push(at, 'webhook', (t) => ({
        t,
        type: 'webhook',
        id,
        attempt: attempt.number,
        payload: event.payload,
        signatureValid: null,
      }));
      push(at, 'webhook-answer', (t) => ({
        t,
        type: 'webhook-answer',
        webhook: id,
        ...(attempt.status === undefined ? {} : { status: attempt.status }),
        ...(attempt.error === undefined ? {} : { error: attempt.error }),
      }));
    }
  }
  for (const reply of replies) {
    if (reply.in_reply_to === undefined) continue;
    const original = reply.in_reply_to;
    push(Date.parse(reply.creation_date), 'reply', (t) => ({
      t,
      type: 'reply',
      message: original,
      from: reply.recipient[0] ?? '',
      text: reply.message,
    }));
  }
  if (account !== undefined) {
    const view = await handle.accounts.get(account);
    const firstAt = new Map<Environment, number>();
    for (const entry of entries)
      if (!firstAt.has(entry.environment)) firstAt.set(entry.environment, Date.parse(entry.time));
    for (const environment of used) {
      const messages = await allPages<MessageView>((page) =>
        handle.messages.list({ account, environment, page, limit: 1000 }),
      );
      const spent =
        messages.reduce((sum, message) => sum + message.credit, 0) +
        entries
          .filter((entry) => entry.environment === environment)
          .reduce((sum, entry) => sum + rejectedCharge(entry), 0);
      const balance = view[environment].balance + spent;
      push(firstAt.get(environment) ?? 0, 'account', (t) => ({ t, type: 'account', environment, balance }));
    }
  }
  raws.sort((a, b) => a.at - b.at || a.rank - b.rank || a.seq - b.seq);
  const startMs = raws[0]?.at ?? 0;
  const timeZone = zoneOf(entries[0]?.time ?? webhooks[0]?.createdAt);
  const bindings = new Bindings({ startMs, timeZone });
  if (account !== undefined) bindings.key(account);
  const events = renumberPosts(raws.map((raw) => templateEvent(raw.make(Math.max(0, raw.at - startMs)), bindings)));
  const header: TranscriptHeader = {
    version: transcriptVersion,
    type: 'header',
    source: 'emulator',
    startTime: new Date(startMs).toISOString(),
    timeZone,
    values: bindings.inputValues(),
  };
  return formatTranscript(header, events);
}

/**
 * What a send refused for a malformed number was charged (the spec's rule), at the default limits and pricing: the
 * journal keeps the request, not the charge.
 */
function rejectedCharge(entry: JournalEntry): number {
  const body = entry.requestBody as Record<string, unknown> | null;
  if (entry.code !== 'INVALID_RECIPIENT_ENTRY' || typeof body !== 'object' || body === null) return 0;
  const limits = {
    batchLimit: settings.batchLimit.schema.parse(undefined) as number,
    messageLimit: settings.messageLimit.schema.parse(undefined) as number,
  };
  return sendCost(chargeableText(body.message, limits), recipientCount(body.recipient), 'per-segment');
}

/** Posts named w1, w2, … in the order they appear (they were named in log order, before sorting by time). */
function renumberPosts(events: TranscriptEvent[]): TranscriptEvent[] {
  const names = new Map<string, string>();
  return events.map((event) => {
    if (event.type === 'webhook') {
      const id = `w${names.size + 1}`;
      names.set(event.id, id);
      return { ...event, id };
    }
    if (event.type === 'webhook-answer') return { ...event, webhook: names.get(event.webhook) ?? event.webhook };
    return event;
  });
}

function requestOf(entry: JournalEntry, id: string, t: number): TranscriptEvent {
  const headers: Record<string, string> = {};
  if (entry.account !== null) headers.authorization = basicAuthorization(entry.account);
  Object.assign(headers, signatureHeader(entry));
  const body = entry.requestBody;
  const hasBody = body !== null && body !== undefined && body !== '';
  if (hasBody)
    headers['content-type'] = typeof body === 'string' ? 'application/x-www-form-urlencoded' : 'application/json';
  return {
    t,
    type: 'request',
    id,
    method: entry.method,
    path: entry.path,
    ...(entry.query === '' ? {} : { query: entry.query }),
    environment: apiEnvironment(entry.path) ?? entry.environment,
    headers,
    ...(hasBody ? (typeof body === 'string' ? { bodyText: body } : { body }) : {}),
  };
}

/**
 * One event with its ids, references, times, key and origin as placeholders. Requests and replies are inputs (their
 * client_reference binds, their ids must be known already); answers and webhooks teach the ids the provider issued.
 */
export function templateEvent(event: TranscriptEvent, bindings: Bindings): TranscriptEvent {
  switch (event.type) {
    case 'request': {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(event.headers)) headers[name] = templateHeader(name, value, bindings);
      return {
        ...event,
        path: bindings.templatePath(event.path),
        ...(event.query === undefined ? {} : { query: bindings.templatePath(event.query) }),
        headers,
        ...(event.body === undefined ? {} : { body: bindings.template(event.body, true) }),
      };
    }
    case 'answer':
      return { ...event, ...(event.body === undefined ? {} : { body: bindings.template(event.body) }) };
    case 'webhook':
      return { ...event, payload: bindings.template(event.payload) };
    case 'reply':
      return { ...event, message: bindings.learnId(event.message) };
    default:
      return event;
  }
}

/** `Basic <base64 of key:>`: the API key as the username, the password blank. */
export function basicAuthorization(key: string): string {
  return `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
}

/**
 * A request header as a transcript keeps it. A Basic key is a placeholder bound to the key (its password, which the
 * emulator never reads, is left out, so the replay still authenticates); any other credential is masked
 * (`Bearer ***`), since transcripts are committed and shared.
 */
function templateHeader(name: string, value: string, bindings: Bindings): string {
  if (name !== 'authorization' && name !== 'proxy-authorization') return value;
  const key = name === 'authorization' ? basicKey(value) : undefined;
  return key === undefined ? maskAuthorization(value) : `Basic ${bindings.key(key)}`;
}

/** The API key of a Basic authorization header (its username, whatever its password), or undefined for any other header. */
export function basicKey(header: string): string | undefined {
  return basicCredentials(header)?.user;
}
