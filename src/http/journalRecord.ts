/** Builds the request journal's record of one request, the same way for the API (on either request path) and for hono's other routes. */

import type { Environment } from '../domain/message.js';
import type { JournalRecord, RequestJournal } from '../journal/requestJournal.js';
import type { Clock } from '../state/clock.js';
import type { Store } from '../state/store.js';
import type { JournalBody } from './apiExchange.js';

/**
 * Whether the journal keeps a request's body: a GET or HEAD has none to keep, even when the client sent one. Asked
 * before the body is read: reading a hono request's body makes @hono/node-server build a whole web Request around
 * the socket, which was most of the CPU of a GET balance (docs/decisions/0001-fast-lane.md).
 */
export function journalKeepsBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

/** What is known of a request when it arrives. */
export interface Arrival {
  method: string;
  path: string;
  /** The query string without `?`, or ''. */
  query: string;
  environment: Environment;
  /** The API key the request claimed (Basic username), whether or not it exists. */
  account: string | null;
}

/**
 * A request's journal record from its arrival on: the arrival's wall and emulator times are noted and its timer
 * started; answered() stops the timer, keep() writes the record once the body to keep is known (it may still be
 * arriving when the answer is ready). The emulator time is that of the account the key names (its clock, a test clock
 * or the main one), else the main clock's. A class, not closures: the request path makes one per request.
 */
export class PendingRecord {
  private readonly record: JournalRecord;
  private readonly started: number;

  constructor(
    private readonly journal: RequestJournal,
    store: Store,
    main: Clock,
    arrival: Arrival,
  ) {
    const virtualMs = (
      (arrival.account === null ? undefined : store.accounts.get(arrival.account))?.clock ?? main
    ).now();
    this.record = journal.arrival(arrival, Date.now(), virtualMs);
    this.started = performance.now();
  }

  answered(status: number, responseBody: string | null, network?: string): void {
    const record = this.record;
    record.durationMs = Math.round((performance.now() - this.started) * 100) / 100;
    record.status = status;
    record.responseBody = responseBody;
    record.network = network ?? null;
  }

  keep(requestBody: JournalBody): void {
    this.record.requestBody = requestBody;
    this.journal.record(this.record);
  }
}
