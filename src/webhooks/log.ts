/** The webhook event log: every event with every try, bounded by a documented limit. */

import type { Environment } from '../domain/message.js';

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

export interface WebhookFilter {
  account?: string;
  environment?: Environment;
  message?: string;
  state?: WebhookState;
}

export class WebhookLog {
  private readonly events = new Map<string, WebhookEvent>();
  /** Where trim() goes on from (map iterators follow later inserts and deletes). */
  private cursor: MapIterator<[string, WebhookEvent]> = this.events.entries();
  private roundDropped = 0;

  constructor(private readonly limit: number) {}

  add(event: WebhookEvent): void {
    this.events.set(event.id, event);
    this.trim();
  }

  get(id: string): WebhookEvent | undefined {
    return this.events.get(id);
  }

  list(filter: WebhookFilter = {}): WebhookEvent[] {
    const matches: WebhookEvent[] = [];
    for (const event of this.events.values()) {
      if (filter.account !== undefined && event.account !== filter.account) continue;
      if (filter.environment !== undefined && event.environment !== filter.environment) continue;
      if (filter.message !== undefined && event.messageId !== filter.message) continue;
      if (filter.state !== undefined && event.state !== filter.state) continue;
      matches.push(event);
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
      const [id, event] = next.value;
      if (event.state !== 'pending' && event.state !== 'delayed') {
        this.events.delete(id);
        this.roundDropped += 1;
      }
    }
  }
}
