/** The webhook event log: every event with every try, bounded by a documented limit. */

import type { Environment } from '../domain/message.js';
import type { WebhookEvent, WebhookState } from '../domain/webhookEvent.js';

// src/engine/controlInput.ts, src/engine/control.ts and src/control/ still import these from here; the control seam's move (issue 25) points them at domain/webhookEvent.ts.

/**
 * An event the log keeps unbuilt until someone reads it (see `SkippedDelivery`): it answers the
 * filter fields and its id without being built, and builds its event once.
 */
export interface DeferredEvent {
  readonly deferred: true;
  readonly account: string;
  readonly environment: Environment;
  readonly messageId: string;
  readonly state: WebhookState;
  hasId(id: string): boolean;
  event(): WebhookEvent;
}

type LogEntry = WebhookEvent | DeferredEvent;

const isDeferred = (entry: LogEntry): entry is DeferredEvent => 'deferred' in entry;

export interface WebhookFilter {
  account?: string;
  environment?: Environment;
  message?: string;
  state?: WebhookState;
}

export class WebhookLog {
  /**
   * Every kept event in the order it happened, from `head` on; a dropped one leaves a hole until the
   * next compaction. An array, not a map: skipped events of a clock jump come and go by the hundred
   * thousand, and a map rehashed its table over and over for them (docs/decisions/0001-fast-lane.md).
   */
  private entries: (LogEntry | undefined)[] = [];
  private head = 0;
  private size = 0;
  /** Built events by id; a deferred one is found by asking it (its id is not formatted until read). */
  private readonly byId = new Map<string, WebhookEvent>();
  /** Where trim() goes on from. */
  private cursor = 0;
  private roundDropped = 0;
  /** A walk that ended on a round of events all still being tried starts the next trim from the oldest, not from the newest added since. */
  private walkEnded = false;
  /** How many kept events each account has, so forgetting an account's costs nothing when it has none. */
  private readonly counts = new Map<string, number>();
  /**
   * Accounts whose events were forgotten (their account was deleted): those events count as holes from then on and
   * leave at the next compaction, which forgetting brings forward, so a deleted test's events free their memory
   * without a pass over everyone's events at each deletion.
   */
  private readonly forgotten = new Set<string>();

  constructor(private readonly limit: number) {}

  add(event: WebhookEvent | DeferredEvent): void {
    // A new account with a forgotten one's key: the old events leave first, so they never pass for the new one's.
    if (this.forgotten.has(event.account)) this.compact();
    this.entries.push(event);
    this.size += 1;
    this.counts.set(event.account, (this.counts.get(event.account) ?? 0) + 1);
    if (!isDeferred(event)) this.byId.set(event.id, event);
    this.trim();
  }

  /** Forgets every event of an account (it was deleted): they are no longer listed, found or kept. */
  forget(account: string): void {
    const count = this.counts.get(account);
    if (count === undefined) return;
    this.counts.delete(account);
    this.forgotten.add(account);
    this.size -= count;
    this.compactIfSparse();
  }

  get(id: string): WebhookEvent | undefined {
    const event = this.byId.get(id);
    if (event) return this.forgotten.has(event.account) ? undefined : event;
    for (let i = this.head; i < this.entries.length; i++) {
      const entry = this.live(i);
      if (entry !== undefined && isDeferred(entry) && entry.hasId(id)) return entry.event();
    }
    return undefined;
  }

  list(filter: WebhookFilter = {}): WebhookEvent[] {
    const matches: WebhookEvent[] = [];
    for (let i = this.head; i < this.entries.length; i++) {
      const entry = this.live(i);
      if (entry === undefined) continue;
      if (filter.account !== undefined && entry.account !== filter.account) continue;
      if (filter.environment !== undefined && entry.environment !== filter.environment) continue;
      if (filter.message !== undefined && entry.messageId !== filter.message) continue;
      if (filter.state !== undefined && entry.state !== filter.state) continue;
      matches.push(isDeferred(entry) ? entry.event() : entry);
    }
    return matches;
  }

  clear(): void {
    this.entries = [];
    this.head = 0;
    this.size = 0;
    this.byId.clear();
    this.counts.clear();
    this.forgotten.clear();
    this.cursor = 0;
    this.roundDropped = 0;
    this.walkEnded = false;
  }

  /**
   * Drops the oldest events that are done with, down to the limit; events still being tried are never
   * dropped. The walk goes on from where the last one stopped (a fresh walk from the start would step
   * over every event still being tried each time); an event passed over while still being tried is
   * looked at again on the next round.
   */
  trim(): void {
    let restarted = false;
    while (this.size > this.limit) {
      if (this.walkEnded || this.cursor >= this.entries.length) {
        if (restarted && this.roundDropped === 0) {
          this.walkEnded = true; // a whole round from the start found only events still being tried
          return;
        }
        this.cursor = this.head;
        this.roundDropped = 0;
        this.walkEnded = false;
        restarted = true;
        continue;
      }
      const entry = this.live(this.cursor);
      if (entry !== undefined && entry.state !== 'pending' && entry.state !== 'delayed') {
        this.drop(this.cursor, entry);
        this.roundDropped += 1;
      }
      this.cursor += 1;
    }
    this.compactIfSparse();
  }

  /** The entry at `index` unless it is a hole or its account's events were forgotten. */
  private live(index: number): LogEntry | undefined {
    const entry = this.entries[index];
    return entry === undefined || (this.forgotten.size > 0 && this.forgotten.has(entry.account)) ? undefined : entry;
  }

  private drop(index: number, entry: LogEntry): void {
    this.entries[index] = undefined;
    this.size -= 1;
    const left = (this.counts.get(entry.account) ?? 1) - 1;
    if (left === 0) this.counts.delete(entry.account);
    else this.counts.set(entry.account, left);
    if (!isDeferred(entry)) this.byId.delete(entry.id);
    while (this.head < this.entries.length && this.entries[this.head] === undefined) this.head += 1;
  }

  private compactIfSparse(): void {
    if (this.head > this.size + 1024 || this.entries.length - this.head > 2 * this.size + 1024) this.compact();
  }

  /** Closes the holes, forgotten accounts' events included, keeping the order and where the trim walk stands. */
  private compact(): void {
    const kept: LogEntry[] = [];
    let cursor = 0;
    for (let i = this.head; i < this.entries.length; i++) {
      const entry = this.entries[i];
      if (entry === undefined) continue;
      if (this.forgotten.has(entry.account)) {
        if (!isDeferred(entry)) this.byId.delete(entry.id);
        continue;
      }
      if (i < this.cursor) cursor += 1;
      kept.push(entry);
    }
    this.entries = kept;
    this.head = 0;
    this.cursor = cursor;
    this.forgotten.clear();
  }
}
