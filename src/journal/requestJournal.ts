/** The request journal: every API request, accepted or rejected, kept as references and rendered only when read. */

import { z } from 'zod';
import { queryIntegerSchema } from '../domain/queryInteger.js';
import { environments } from '../domain/environment.js';
import { formatInstant } from '../domain/time.js';

/** Bodies longer than this many bytes are kept cut to this length, marked as truncated. */
export const journalBodyLimit = 16 * 1024;

/** What is known of a request once it has been answered, as recorded and as shown alike. */
const requestFactsSchema = z.strictObject({
  method: z.string(),
  path: z.string(),
  /** The query string without `?`, or ''. */
  query: z.string(),
  environment: z.enum(environments),
  /** The API key the request claimed (Basic username), whether or not it exists. */
  account: z.string().nullable(),
  /** 0 when no HTTP answer was sent (a network fault's reset or hang-up). */
  status: z.int().describe('0 when no HTTP answer was sent (a network fault).'),
  durationMs: z.number(),
  /** The network fault the transport showed instead of (or after) the answer, or null. */
  network: z.string().nullable(),
});
type RequestFacts = z.output<typeof requestFactsSchema>;

/** What the HTTP layer hands over for one request; bodies stay raw until someone reads the entry. */
export interface JournalRecord extends RequestFacts {
  wallMs: number;
  virtualMs: number;
  /** The request body as received, or a note why there is none to show. */
  requestBody: Uint8Array | string | null;
  /** The JSON text answered, if any. */
  responseBody: string | null;
}

const facts = requestFactsSchema.shape;
/** One journal entry as the control API and the library show it. */
export const journalEntrySchema = z.strictObject({
  /** `req_1`, `req_2`, … in arrival order; restarts at reset. */
  id: z.string(),
  /** Wall-clock time the request arrived (UTC). */
  wallTime: z.string(),
  /** Emulator-clock time the request arrived, in the emulator's offset. */
  time: z.string(),
  method: facts.method,
  path: facts.path,
  query: facts.query,
  environment: facts.environment,
  account: facts.account,
  status: facts.status,
  network: facts.network,
  /** The error code answered, or null for a success. */
  code: z.string().nullable(),
  /** The message the request was about (path id, or the id of a created message), or null. */
  messageId: z.string().nullable(),
  durationMs: facts.durationMs,
  requestBody: z
    .unknown()
    .describe('Parsed JSON when the body was JSON, else the text; over 16 KiB it is cut and says so.'),
  responseBody: z.unknown().describe('The JSON answered, if any.'),
});
export type JournalEntry = z.output<typeof journalEntrySchema>;

export const journalFilter = z.strictObject({
  account: z.string().optional(),
  environment: z.enum(environments).optional(),
  method: z.string().optional(),
  path: z.string().optional().describe('Part of the path, such as /v1/messages.'),
  status: queryIntegerSchema.pipe(z.number().int().min(100).max(599)).optional(),
  code: z.string().optional(),
  since: z
    .string()
    .refine(
      (value) => /^req_\d+$/.test(value) || !Number.isNaN(Date.parse(value)),
      'expected an ISO 8601 time or a journal id such as req_12',
    )
    .optional()
    .describe('Entries at or after this emulator-clock time (ISO 8601), or after this journal id (req_12).'),
  message: z.string().optional(),
});
export type JournalFilter = z.input<typeof journalFilter>;
type ParsedFilter = z.output<typeof journalFilter>;

interface Stored extends JournalRecord {
  seq: number;
  /** Its index in `entries` (kept up to date by compaction), so forgetting it costs nothing else. */
  slot: number;
}

/**
 * One claimed API key's kept entries, oldest first from `head` on. Entries leave the journal oldest first, or all of one
 * key's at once, so a key's kept entries are always the newest it made and the journal's oldest is its key's oldest.
 */
interface KeyEntries {
  items: (Stored | undefined)[];
  head: number;
}

const utf8 = new TextDecoder('utf-8');

export class RequestJournal {
  /** Kept entries, oldest first from `head` on; one dropped or forgotten leaves a hole until the next compaction. */
  private entries: (Stored | undefined)[] = [];
  private head = 0;
  private size = 0;
  /**
   * Each claimed API key's kept entries: deleting an account forgets them at the cost of what it made. A list per key,
   * not a set: every API request passes here, and a set's insert and delete per request cost more than the list's push.
   */
  private readonly byAccount = new Map<string, KeyEntries>();
  private seq = 0;
  private readonly listeners: ((entry: () => JournalEntry) => void)[] = [];

  constructor(
    readonly limit: number,
    private readonly offsetMinutes: number,
  ) {}

  get enabled(): boolean {
    return this.limit > 0 || this.listeners.length > 0;
  }

  /** Calls `listener` after each request with a function that renders the entry (so a listener that ignores it costs nothing). */
  subscribe(listener: (entry: () => JournalEntry) => void): void {
    this.listeners.push(listener);
  }

  /**
   * The record of a request that has just arrived, the one object the journal keeps of it: made whole in its kept shape
   * at once (every kept entry outlives many collections, and fields added later gave each a second, out-of-object
   * store), filled in as the answer comes, then handed to record(). One object per request, not a record and a copy.
   */
  arrival(
    facts: Pick<JournalRecord, 'method' | 'path' | 'query' | 'environment' | 'account'>,
    wallMs: number,
    virtualMs: number,
  ): JournalRecord {
    const stored: Stored = {
      wallMs,
      virtualMs,
      method: facts.method,
      path: facts.path,
      query: facts.query,
      environment: facts.environment,
      account: facts.account,
      status: 0,
      durationMs: 0,
      network: null,
      requestBody: null,
      responseBody: null,
      seq: 0,
      slot: 0,
    };
    return stored;
  }

  /** Keeps a record arrival() made, now complete (its bodies cut to the limit); the HTTP layer no longer touches it. */
  record(record: JournalRecord): void {
    const stored = record as Stored;
    stored.requestBody = bounded(record.requestBody);
    stored.responseBody = boundedText(record.responseBody);
    stored.seq = ++this.seq;
    stored.slot = this.entries.length;
    if (this.limit > 0) this.keep(stored);
    for (const listener of this.listeners) listener(() => this.render(stored));
  }

  private keep(stored: Stored): void {
    this.entries.push(stored);
    this.size += 1;
    if (stored.account !== null) {
      const own = this.byAccount.get(stored.account);
      if (own === undefined) this.byAccount.set(stored.account, { items: [stored], head: 0 });
      else own.items.push(stored);
    }
    if (this.size > this.limit) {
      while (this.entries[this.head] === undefined) this.head += 1;
      this.dropOldest(this.entries[this.head] as Stored);
    }
    this.compactIfSparse();
  }

  /** Takes the journal's oldest entry out, and out of its key's list, where it is the oldest too. */
  private dropOldest(stored: Stored): void {
    this.entries[stored.slot] = undefined;
    this.size -= 1;
    if (stored.account === null) return;
    const own = this.byAccount.get(stored.account) as KeyEntries;
    own.items[own.head] = undefined;
    own.head += 1;
    if (own.head === own.items.length) this.byAccount.delete(stored.account);
    else if (own.head > 1024 && own.head * 2 > own.items.length) {
      own.items = own.items.slice(own.head);
      own.head = 0;
    }
  }

  /** Closes the holes once they outnumber the entries (amortised: each entry moves once per doubling). */
  private compactIfSparse(): void {
    if (this.entries.length - this.head <= 2 * this.size + 1024) return;
    const kept: Stored[] = [];
    for (let i = this.head; i < this.entries.length; i++) {
      const stored = this.entries[i];
      if (stored === undefined) continue;
      stored.slot = kept.length;
      kept.push(stored);
    }
    this.entries = kept;
    this.head = 0;
  }

  /** Matching entries, newest first. */
  find(filter: ParsedFilter): JournalEntry[] {
    return this.matching(filter).map((stored) => this.render(stored));
  }

  count(filter: ParsedFilter): number {
    return this.matching(filter).length;
  }

  /** Forgets every entry (ids restart), or only one account's (its reset or deletion: what it made, nothing else). */
  clear(account?: string): void {
    if (account !== undefined) {
      const own = this.byAccount.get(account);
      if (own === undefined) return;
      this.byAccount.delete(account);
      for (let i = own.head; i < own.items.length; i++) this.entries[(own.items[i] as Stored).slot] = undefined;
      this.size -= own.items.length - own.head;
      this.compactIfSparse();
      return;
    }
    this.entries = [];
    this.head = 0;
    this.size = 0;
    this.byAccount.clear();
    this.seq = 0;
  }

  private newestFirst(): Stored[] {
    const ordered: Stored[] = [];
    for (let i = this.entries.length - 1; i >= this.head; i--) {
      const stored = this.entries[i];
      if (stored !== undefined) ordered.push(stored);
    }
    return ordered;
  }

  private matching(filter: ParsedFilter): Stored[] {
    const method = filter.method?.toUpperCase();
    const since = filter.since;
    const afterSeq = since !== undefined && since.startsWith('req_') ? Number(since.slice(4)) : undefined;
    const fromMs = since !== undefined && afterSeq === undefined ? Date.parse(since) : undefined;
    return this.newestFirst().filter(
      (stored) =>
        (filter.account === undefined || stored.account === filter.account) &&
        (filter.environment === undefined || stored.environment === filter.environment) &&
        (method === undefined || stored.method === method) &&
        (filter.path === undefined || stored.path.includes(filter.path)) &&
        (filter.status === undefined || stored.status === filter.status) &&
        (filter.code === undefined || errorCode(stored) === filter.code) &&
        (afterSeq === undefined || stored.seq > afterSeq) &&
        (fromMs === undefined || stored.virtualMs >= fromMs) &&
        (filter.message === undefined || messageId(stored) === filter.message),
    );
  }

  private render(stored: Stored): JournalEntry {
    return {
      id: `req_${stored.seq}`,
      wallTime: new Date(stored.wallMs).toISOString(),
      time: formatInstant(stored.virtualMs, this.offsetMinutes),
      method: stored.method,
      path: stored.path,
      query: stored.query,
      environment: stored.environment,
      account: stored.account,
      status: stored.status,
      network: stored.network,
      code: errorCode(stored),
      messageId: messageId(stored),
      requestBody: readable(stored.requestBody),
      responseBody: readable(stored.responseBody),
      durationMs: stored.durationMs,
    };
  }
}

const truncatedMark = `… [truncated: the journal keeps the first ${journalBodyLimit} bytes of a body]`;

/** Cuts a large body at record time so the journal never holds more than the limit per body. */
function bounded(body: Uint8Array | string | null): Uint8Array | string | null {
  if (body instanceof Uint8Array) {
    if (body.byteLength <= journalBodyLimit) return body;
    return utf8.decode(body.slice(0, journalBodyLimit)) + truncatedMark;
  }
  return boundedText(body);
}

function boundedText(text: string | null): string | null {
  if (text === null || text.length <= journalBodyLimit) return text;
  // Buffer round trip: a fresh string, so the journal does not keep the whole original alive.
  return Buffer.from(text.slice(0, journalBodyLimit)).toString() + truncatedMark;
}

function readable(body: Uint8Array | string | null): unknown {
  if (body === null) return null;
  const text = typeof body === 'string' ? body : utf8.decode(body);
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function parsedResponse(stored: Stored): Record<string, unknown> | undefined {
  if (stored.responseBody === null || !stored.responseBody.startsWith('{')) return undefined;
  try {
    return JSON.parse(stored.responseBody) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function errorCode(stored: Stored): string | null {
  if (stored.status < 400) return null;
  const body = parsedResponse(stored);
  const error = (body?.error ?? body) as { message?: unknown } | undefined;
  return typeof error?.message === 'string' ? error.message : null;
}

const messagePath = /^(?:\/sandbox)?\/v1\/messages\/([^/]+)$/;

function messageId(stored: Stored): string | null {
  const fromPath = messagePath.exec(stored.path)?.[1];
  if (fromPath !== undefined && fromPath !== 'balance') return safeDecode(fromPath);
  if (stored.method !== 'POST' || stored.status !== 201) return null;
  const id = parsedResponse(stored)?.id;
  return typeof id === 'string' ? id : null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
