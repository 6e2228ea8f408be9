/** The webhook event log: every event with every try, bounded by a documented limit. */

import type { Environment, MessageRecord } from '../domain/message.js';
import { formatInstant } from '../domain/time.js';

export type WebhookKind = 'delivery' | 'reply';
/** `skipped`: no webhook URL was set, so nothing was posted (the event is still logged). */
export type WebhookState = 'pending' | 'delayed' | 'delivered' | 'failed' | 'skipped';

export interface WebhookAttempt {
  /** 1 for the first try. */
  number: number;
  /** Emulator clock time of the try. */
  at: string;
  url: string;
  /** HTTP status the receiver answered, when it answered. */
  status?: number;
  /** What went wrong when there was no answer: timeout or connection error. */
  error?: string;
  durationMs: number;
  ok: boolean;
}

export interface WebhookEvent {
  id: string;
  kind: WebhookKind;
  environment: Environment;
  account: string;
  messageId: string;
  recipient: string;
  status: string;
  /** Emulator clock time the event happened. */
  createdAt: string;
  url: string | null;
  state: WebhookState;
  payload: unknown;
  attempts: WebhookAttempt[];
  /** Chaos applied to this event, if any. */
  chaos: ('duplicate' | 'delayed' | 'reordered')[];
}

/** What an event is made of; `at` is the emulator time it happened (epoch ms). */
export interface WebhookEventFacts {
  id: string;
  kind: WebhookKind;
  message: MessageRecord;
  recipient: string;
  status: string;
  at: number;
  offsetMinutes: number;
  url: string | null;
  state: WebhookState;
  payload: unknown;
}

/** The one way an event is made, posted or skipped, so every event shows the same fields in the same order. */
export function webhookEvent(facts: WebhookEventFacts): WebhookEvent {
  return {
    id: facts.id,
    kind: facts.kind,
    environment: facts.message.environment,
    account: facts.message.apiKey,
    messageId: facts.message.id,
    recipient: facts.recipient,
    status: facts.status,
    createdAt: formatInstant(facts.at, facts.offsetMinutes),
    url: facts.url,
    state: facts.state,
    payload: facts.payload,
    attempts: [],
    chaos: [],
  };
}

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
  /** Built events by id, deferred ones by a number (their id is not formatted until read); in the order they happened. */
  private readonly events = new Map<string | number, LogEntry>();
  /** Where trim() goes on from (map iterators follow later inserts and deletes). */
  private cursor: MapIterator<[string | number, LogEntry]> = this.events.entries();
  private roundDropped = 0;
  private deferredKeys = 0;

  constructor(private readonly limit: number) {}

  add(event: WebhookEvent | DeferredEvent): void {
    this.events.set(isDeferred(event) ? this.deferredKeys++ : event.id, event);
    this.trim();
  }

  get(id: string): WebhookEvent | undefined {
    const entry = this.events.get(id);
    if (entry) return entry as WebhookEvent;
    for (const other of this.events.values()) if (isDeferred(other) && other.hasId(id)) return other.event();
    return undefined;
  }

  list(filter: WebhookFilter = {}): WebhookEvent[] {
    const matches: WebhookEvent[] = [];
    for (const entry of this.events.values()) {
      if (filter.account !== undefined && entry.account !== filter.account) continue;
      if (filter.environment !== undefined && entry.environment !== filter.environment) continue;
      if (filter.message !== undefined && entry.messageId !== filter.message) continue;
      if (filter.state !== undefined && entry.state !== filter.state) continue;
      matches.push(isDeferred(entry) ? entry.event() : entry);
    }
    return matches;
  }

  clear(): void {
    this.events.clear();
    this.cursor = this.events.entries();
    this.roundDropped = 0;
  }

  /**
   * Drops the oldest events that are done with, down to the limit; events still being tried are never
   * dropped. The walk goes on from where the last one stopped: a fresh walk from the start steps over
   * every entry deleted since the map last compacted, which made trimming a third of a 7-day jump
   * (issue 11). An event passed over while still being tried is looked at again on the next round.
   */
  trim(): void {
    let restarted = false;
    while (this.events.size > this.limit) {
      const next = this.cursor.next();
      if (next.done) {
        if (restarted && this.roundDropped === 0) return; // a whole round from the start found only events still being tried
        this.cursor = this.events.entries();
        this.roundDropped = 0;
        restarted = true;
        continue;
      }
      const [key, entry] = next.value;
      if (entry.state !== 'pending' && entry.state !== 'delayed') {
        this.events.delete(key);
        this.roundDropped += 1;
      }
    }
  }
}
