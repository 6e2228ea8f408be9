/** The inbox's live stream: engine events coalesced into Server-Sent Events, one engine subscription shared by every page. */

// Imported from node:timers so a host test runner that fakes the global timers cannot stall the heartbeat.
import { clearInterval, setImmediate, setInterval } from 'node:timers';
import { ApiError } from '../domain/errors.js';
import type { MessageRecord } from '../domain/message.js';
import type { EmulatorEmitter } from '../events.js';
import type { WebhookEvent } from '../domain/webhookEvent.js';
import type { FeedViews, Pending } from './feedViews.js';

/** A comment line now and then lets proxies keep the connection and lets the server notice a dead peer. */
const heartbeatMs = 20_000;
/** Frames a page may fall behind before it is dropped; its EventSource reconnects and starts from a fresh state. */
const backlogLimit = 500;
const encoder = new TextEncoder();
/** Most streams open at once in this process, all emulators together: each holds a socket, a queue and a view. */
export const maxOpenStreams = 64;
/** How long a refused page is asked to wait before it tries again. */
const retryAfterSeconds = 5;
let openStreams = 0;

interface Client {
  controller: ReadableStreamDefaultController<Uint8Array>;
}

const emptyPending = (): Pending => ({ messages: new Map(), replies: new Map(), webhooks: new Map() });

function frame(event: string, data: unknown): Uint8Array {
  return encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export class LiveFeed {
  private readonly clients = new Set<Client>();
  private unsubscribers: (() => void)[] = [];
  private pending = emptyPending();
  private flushQueued = false;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(
    private readonly events: EmulatorEmitter,
    private readonly views: FeedViews,
  ) {}

  /** Pages connected now. */
  get size(): number {
    return this.clients.size;
  }

  /** A `text/event-stream` response: the current state first, then coalesced updates until the page leaves. */
  open(signal?: AbortSignal): Response {
    if (this.closed) return new Response(null, { status: 204 });
    if (openStreams >= maxOpenStreams) {
      throw new ApiError(
        'TOO_MANY_REQUESTS',
        `${maxOpenStreams} live inbox streams are open in this process, the most it serves; close an inbox page and retry after ${retryAfterSeconds} s.`,
        { 'Retry-After': String(retryAfterSeconds) },
      );
    }
    let client: Client | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        client = { controller };
        this.add(client);
        controller.enqueue(frame('state', this.views.state()));
      },
      cancel: () => {
        if (client) this.remove(client);
      },
    });
    signal?.addEventListener('abort', () => client && this.drop(client), { once: true });
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      },
    });
  }

  /** Ends every stream and stops listening (emulator.close). */
  close(): void {
    this.closed = true;
    for (const client of [...this.clients]) this.drop(client);
  }

  private add(client: Client): void {
    this.clients.add(client);
    openStreams += 1;
    if (this.clients.size > 1) return;
    // The engine is only listened to while someone watches, so a closed page costs nothing.
    const { events } = this;
    this.unsubscribers = [
      events.on('message.created', ({ message }) => this.queueMessage(message)),
      events.on('leg.status', ({ message }) => this.queueMessage(message)),
      events.on('reply.received', ({ reply, original }) => {
        this.pending.replies.set(reply.id, reply);
        this.queueMessage(original);
      }),
      events.on('webhook.attempt', ({ event }) => this.queueWebhook(event)),
      events.on('webhook.settled', ({ event }) => this.queueWebhook(event)),
      events.on('clock.moved', () => this.queue()),
      events.on('account.changed', () => this.queue()),
      events.on('state.replaced', () => this.restate()),
    ];
    this.heartbeat = setInterval(() => this.broadcast(encoder.encode(': heartbeat\n\n')), heartbeatMs);
    this.heartbeat.unref();
  }

  private remove(client: Client): void {
    if (!this.clients.delete(client)) return;
    openStreams -= 1;
    if (this.clients.size > 0) return;
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.unsubscribers = [];
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.pending = emptyPending();
  }

  private drop(client: Client): void {
    this.remove(client);
    try {
      client.controller.close();
    } catch {
      // Already closed or cancelled by the peer.
    }
  }

  private queueMessage(message: MessageRecord): void {
    this.queue(() => this.pending.messages.set(message.id, message));
  }

  private queueWebhook(event: WebhookEvent): void {
    this.queue(() => this.pending.webhooks.set(event.id, event));
  }

  /** Collects changes made in one turn of the event loop so a burst becomes one event per page, each record once. */
  private queue(change?: () => void): void {
    change?.();
    if (this.flushQueued) return;
    this.flushQueued = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushQueued = false;
    const pending = this.pending;
    this.pending = emptyPending();
    if (this.clients.size === 0) return;
    this.broadcast(frame('update', this.views.update(pending)));
  }

  private restate(): void {
    this.pending = emptyPending();
    this.broadcast(frame('state', this.views.state()));
  }

  private broadcast(chunk: Uint8Array): void {
    for (const client of [...this.clients]) {
      if ((client.controller.desiredSize ?? 0) < -backlogLimit) {
        this.drop(client);
        continue;
      }
      try {
        client.controller.enqueue(chunk);
      } catch {
        this.remove(client);
      }
    }
  }
}
