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
  }

  /** Drops the oldest events that are done with, down to the limit; events still being tried are never dropped. */
  trim(): void {
    if (this.events.size <= this.limit) return;
    for (const [id, event] of this.events) {
      if (this.events.size <= this.limit) return;
      if (event.state !== 'pending' && event.state !== 'delayed') this.events.delete(id);
    }
  }
}
