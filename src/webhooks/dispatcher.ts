/**
 * Posts webhook events: in order per message, with the spec's re-attempts, a timeout, optional
 * signing and chaos, and a log entry for every try. Never blocks the API or the clock.
 */

import { type Environment, type MessageRecord, type MessageStatus, environments } from '../domain/message.js';
import { type RenderContext, renderMessage } from '../domain/representation.js';
import { tryHeaders, webhookHeaders } from './webhookHeaders.js';
import { type BehaviourDecider, maxDeliveriesPerNotification } from './deliveryBehaviour.js';
import { ApiError } from '../domain/errors.js';
import { formatInstant } from '../domain/time.js';
import type { EmulatorEmitter } from '../events.js';
import type { Clock } from '../state/clock.js';
import type { Random } from '../state/random.js';
import type { WallTimers } from '../state/wallTimers.js';
import type { Account, Store } from '../state/store.js';
import {
  type PostedState,
  type WebhookAttempt,
  type WebhookEvent,
  type WebhookKind,
  webhookEvent,
} from '../domain/webhookEvent.js';
import { WebhookLog } from './log.js';
import { SkippedDelivery } from './skippedDelivery.js';
import { type WebhookReceiver, WebhookTransport } from './transport.js';

export interface WebhookChaos {
  duplicateRate: number;
  delayRate: number;
  reorderRate: number;
  delayMs: number;
}

export interface DispatcherSettings {
  retries: number;
  backoffMs: number;
  timeoutMs: number;
  logLimit: number;
  signingSecret: string | undefined;
  notifyOn: readonly string[];
  offsetMinutes: number;
  chaos: WebhookChaos;
}

interface Outgoing {
  event: WebhookEvent;
  /** answer-ignored: how many more 200 answers count as lost. */
  ignoreAnswers?: number;
  /** Emulator time before which the event must not be posted (delayed chaos). */
  notBefore: number;
  /** The clock of the event's account: its holds and the times of its tries are on it. */
  clock: Clock;
}

/** Events of one message wait here so they are posted in the order they happened. */
interface MessageQueue {
  /** The clock of the message's account: the queue's pump counts as that clock's work. */
  clock: Clock;
  items: Outgoing[];
  pumping: boolean;
  /** Set while a clock timer is armed to resume a held-back head. */
  waiting: boolean;
}

/** Tries under way, and who waits for there to be none. */
interface Flights {
  count: number;
  waiters: (() => void)[];
}

/** One try ended: the last one wakes whoever waits. */
function land(flights: Flights): void {
  flights.count -= 1;
  if (flights.count > 0) return;
  const { waiters } = flights;
  flights.waiters = [];
  for (const resolve of waiters) resolve();
}

export class WebhookDispatcher {
  readonly log: WebhookLog;
  private readonly queues = new Map<string, MessageQueue>();
  /** Pumps and redeliveries under way in the whole emulator, and per clock (a move settles only its own clock's). */
  private readonly everywhere: Flights = { count: 0, waiters: [] };
  private readonly perClock = new WeakMap<Clock, Flights>();
  private chaos: WebhookChaos;
  private generation = 0;
  /** The scenario's delivery behaviours (duplicate, reorder, late, orphan, answer-ignored); none until one is set. */
  private behaviours: BehaviourDecider = () => [];
  /** Notifications a reorder holds back, by message, until the message's next one has been queued. */
  private readonly heldBack = new Map<string, Outgoing[]>();
  /** Closed by close(): tries on the wire stop at once and are logged as failed, not left hanging. */
  private readonly transport: WebhookTransport;

  constructor(
    /** The main clock: the one for a redelivery whose account was deleted since. */
    private readonly clock: Clock,
    private readonly store: Store,
    private readonly events: EmulatorEmitter,
    private readonly random: Random,
    /** Where a re-attempt waits its backoff, so close() ends the wait. */
    private readonly wallTimers: WallTimers,
    private readonly settings: DispatcherSettings,
    /** Origin plus environment prefix for links inside payloads. */
    private readonly apiBase: (environment: Environment) => string,
  ) {
    this.log = new WebhookLog(settings.logLimit);
    this.transport = new WebhookTransport(settings.timeoutMs);
    this.chaos = { ...settings.chaos };
    const notifyOn = new Set(settings.notifyOn);
    events.on('leg.status', ({ message, leg, status, at }) => {
      if (!notifyOn.has(status)) return;
      const account = this.store.accounts.get(message.apiKey);
      const url = account?.environments[message.environment].webhookUrl;
      if (account === undefined || url == null) return this.skip(message, leg.recipient, status, at);
      const payload = renderMessage(message, this.context(message), undefined, { recipient: leg.recipient, status });
      this.enqueue('delivery', account.clock, url, message, leg.recipient, status, payload);
    });
    events.on('reply.received', ({ reply, original }) => {
      const account = this.store.accounts.get(reply.apiKey);
      const url = account?.environments[reply.environment].webhookUrl ?? null;
      const payload = renderMessage(reply, this.context(reply));
      this.enqueue(
        'reply',
        account?.clock ?? this.clock,
        url,
        reply,
        reply.recipients[0] ?? '',
        reply.status,
        payload,
        original.id,
      );
    });
  }

  configureChaos(chaos: Partial<WebhookChaos>): WebhookChaos {
    this.chaos = { ...this.chaos, ...chaos };
    return { ...this.chaos };
  }

  chaosSettings(): WebhookChaos {
    return { ...this.chaos };
  }

  /**
   * Resolves once every webhook try that has started, or is due, has finished: of `clock`'s accounts only when given
   * (a receiver that hangs on another clock holds no one else's move), else of the whole emulator.
   */
  async settled(clock?: Clock): Promise<void> {
    const flights = clock === undefined ? this.everywhere : this.perClock.get(clock);
    if (flights !== undefined && flights.count > 0) await new Promise<void>((resolve) => flights.waiters.push(resolve));
  }

  /** Posts a logged event again to the account's current webhook URL (else the one it had); resolves when its tries end. */
  async redeliver(event: WebhookEvent): Promise<WebhookEvent> {
    // The account's current URL; only an account deleted since falls back to where the event went before.
    const account = this.store.accounts.get(event.account);
    const current = account?.environments[event.environment].webhookUrl;
    const url = current === undefined ? event.url : current;
    if (url === null) {
      throw new ApiError(
        'CONTROL_INVALID_REQUEST',
        `Account "${event.account}" has no ${event.environment} webhook URL to redeliver to.`,
      );
    }
    event.url = url;
    event.state = 'pending';
    const clock = account?.clock ?? this.clock;
    await this.track(clock, this.post({ event, notBefore: 0, clock }));
    return event;
  }

  /** Sets who decides the delivery behaviours of each notification (the scenario runtime). */
  useBehaviours(decide: BehaviourDecider): void {
    this.behaviours = decide;
  }

  /** Delivers to URLs starting with `prefix` through `receiver` in this process, with every rule a socket try has. */
  receiveLocally(prefix: string, receiver: WebhookReceiver): () => void {
    return this.transport.receiveLocally(prefix, receiver);
  }

  /** Stops every try under way (logged as failed: "emulator closed") and resolves when all have ended. */
  async close(): Promise<void> {
    this.transport.close();
    await this.settled();
  }

  /**
   * Forgets a deleted account's webhooks: its log entries and the queues of its messages (a held event never goes out).
   * Costs what the account had; tries already on the wire finish, unlisted.
   */
  forget(account: Account): void {
    this.log.forget(account.apiKey);
    for (const environment of environments) {
      for (const message of account.environments[environment].messages) {
        const queue = this.queues.get(message.id);
        if (queue === undefined) continue;
        queue.items.length = 0;
        this.queues.delete(message.id);
      }
      for (const message of account.environments[environment].messages) this.heldBack.delete(message.id);
    }
  }

  /** Forgets the log and every queued event (reset); tries already on the wire finish unrecorded. */
  reset(): void {
    this.generation += 1;
    this.log.clear();
    this.queues.clear();
    this.heldBack.clear();
    this.chaos = { ...this.settings.chaos };
  }

  private context(message: MessageRecord): RenderContext {
    return { apiBase: this.apiBase(message.environment), offsetMinutes: this.settings.offsetMinutes };
  }

  /** Logs a delivery event that has no URL to go to, unbuilt: nothing reads most of them (see SkippedDelivery). */
  private skip(message: MessageRecord, recipient: string, status: MessageStatus, at: number): void {
    const skipped = new SkippedDelivery(
      message,
      recipient,
      status,
      at,
      this.apiBase(message.environment),
      this.settings.offsetMinutes,
      this.random,
    );
    this.log.add(skipped);
    // Final at once, so listeners (the inbox's live stream) hear of it as of a delivered or failed event;
    // it is built for them only when someone listens.
    if (this.events.listens('webhook.settled')) this.events.emit('webhook.settled', { event: skipped.event() });
  }

  private enqueue(
    kind: WebhookKind,
    clock: Clock,
    url: string | null,
    message: MessageRecord,
    recipient: string,
    status: string,
    payload: unknown,
    orderKey = message.id,
  ): void {
    const now = clock.now();
    const make = (): Outgoing => {
      const state = url === null ? 'skipped' : 'pending';
      const event = webhookEvent({
        id: this.random.uuid(),
        kind,
        message,
        recipient,
        status,
        at: now,
        offsetMinutes: this.settings.offsetMinutes,
        url,
        state,
        payload,
      });
      this.log.add(event);
      return { event, notBefore: now, clock };
    };
    const outgoing = make();
    if (url === null) return this.events.emit('webhook.settled', { event: outgoing.event });
    const { chaos } = this;
    const copies = [outgoing];
    const applied = this.behaviours({ kind, message, recipient, status });
    // A duplicate is a re-send of this notification: the same event id and body, as a gateway re-sends.
    const resend = (): Outgoing => {
      const copy = this.marked(make(), 'duplicate');
      copy.event.duplicateOf = outgoing.event.id;
      return copy;
    };
    // However many duplicates match, the emulator's and the account's together, one cap holds: memory and posts stay bounded.
    const room = (): boolean => copies.length < maxDeliveriesPerNotification;
    for (const behaviour of applied)
      if (behaviour.name === 'duplicate')
        for (let extra = 1; extra < behaviour.times && room(); extra++) copies.push(resend());
    if (chaos.duplicateRate > 0 && this.random.next() < chaos.duplicateRate && room()) copies.push(resend());
    const late = applied.find((behaviour) => behaviour.name === 'late');
    const ignored = applied.find((behaviour) => behaviour.name === 'answer-ignored');
    const reorder = kind === 'delivery' && applied.some((behaviour) => behaviour.name === 'reorder');
    const queued: Outgoing[] = [];
    for (const copy of copies) {
      if (late !== undefined) {
        this.marked(copy, 'late').event.state = 'delayed';
        copy.notBefore = now + late.afterMs;
      }
      if (ignored !== undefined) this.marked(copy, 'answer-ignored').ignoreAnswers = ignored.times;
      if (chaos.reorderRate > 0 && this.random.next() < chaos.reorderRate) {
        copy.event.chaos.push('reordered');
        copy.event.state = 'delayed';
        clock.at(now + chaos.delayMs, () => void this.track(clock, this.post(copy)));
        continue;
      }
      if (chaos.delayRate > 0 && this.random.next() < chaos.delayRate) {
        copy.event.chaos.push('delayed');
        copy.event.state = 'delayed';
        copy.notBefore = now + chaos.delayMs;
      }
      queued.push(copy);
    }
    if (reorder) {
      // Held until the message's next notification is queued: that one goes first, these after it.
      for (const copy of queued) this.marked(copy, 'reordered').event.state = 'delayed';
      this.heldBack.set(orderKey, [...(this.heldBack.get(orderKey) ?? []), ...queued]);
    } else {
      const queue = this.queueFor(orderKey, clock);
      queue.items.push(...queued);
      const held = this.heldBack.get(orderKey);
      if (held !== undefined) {
        this.heldBack.delete(orderKey);
        for (const copy of held) copy.event.state = 'pending';
        queue.items.push(...held);
      }
    }
    if (applied.some((behaviour) => behaviour.name === 'orphan'))
      this.orphan(kind, clock, url, message, recipient, status, payload);
    this.pump(orderKey);
  }

  /** Marks an outgoing event with a behaviour (once) and answers it. */
  private marked(outgoing: Outgoing, name: WebhookEvent['chaos'][number]): Outgoing {
    if (!outgoing.event.chaos.includes(name)) outgoing.event.chaos.push(name);
    return outgoing;
  }

  /** orphan: one more notification like this one, for a message id the account never sent. */
  private orphan(
    kind: WebhookKind,
    clock: Clock,
    url: string,
    message: MessageRecord,
    recipient: string,
    status: string,
    payload: unknown,
  ): void {
    const id = this.random.uuid();
    const stranger: MessageRecord = { ...message, id };
    const links = (payload as { _links?: unknown })._links;
    const copy = {
      ...(payload as Record<string, unknown>),
      id,
      ...(links === undefined
        ? {}
        : { _links: JSON.parse(JSON.stringify(links).replaceAll(message.id, id)) as unknown }),
    };
    const event = webhookEvent({
      id: this.random.uuid(),
      kind,
      message: stranger,
      recipient,
      status,
      at: clock.now(),
      offsetMinutes: this.settings.offsetMinutes,
      url,
      state: 'pending',
      payload: copy,
    });
    event.chaos.push('orphan');
    this.log.add(event);
    this.queueFor(id, clock).items.push({ event, notBefore: clock.now(), clock });
    this.pump(id);
  }

  private queueFor(key: string, clock: Clock): MessageQueue {
    let queue = this.queues.get(key);
    if (!queue) {
      queue = { clock, items: [], pumping: false, waiting: false };
      this.queues.set(key, queue);
    }
    return queue;
  }

  /** Posts a message's queued events one after another; a held-back head waits for the clock. */
  private pump(key: string): void {
    const queue = this.queues.get(key);
    if (!queue || queue.pumping) return;
    const generation = this.generation;
    const run = async (): Promise<void> => {
      queue.pumping = true;
      try {
        while (queue.items.length > 0 && generation === this.generation) {
          const head = queue.items[0] as Outgoing;
          if (head.notBefore > head.clock.now()) {
            if (!queue.waiting) {
              queue.waiting = true;
              head.clock.at(head.notBefore, () => {
                queue.waiting = false;
                this.pump(key);
              });
            }
            return;
          }
          await this.post(head);
          queue.items.shift();
        }
        if (queue.items.length === 0 && this.queues.get(key) === queue) this.queues.delete(key);
      } finally {
        queue.pumping = false;
      }
    };
    void this.track(queue.clock, run());
  }

  /**
   * Counts `promise` as in flight on `clock` and in the emulator until it ends; counts, not sets of promises, so
   * settled() costs nothing per event.
   */
  private track<T>(clock: Clock, promise: Promise<T>): Promise<T> {
    let flights = this.perClock.get(clock);
    if (flights === undefined) {
      flights = { count: 0, waiters: [] };
      this.perClock.set(clock, flights);
    }
    const own = flights;
    own.count += 1;
    this.everywhere.count += 1;
    const ended = (): void => {
      land(own);
      land(this.everywhere);
    };
    promise.then(ended, ended);
    return promise;
  }

  private async post(outgoing: Outgoing): Promise<void> {
    const { event } = outgoing;
    const body = JSON.stringify(event.payload);
    event.state = 'pending';
    const headers = webhookHeaders(event.duplicateOf ?? event.id, body, this.settings.signingSecret);
    const tries = this.settings.retries + 1;
    for (let i = 0; i < tries && !this.transport.isClosed; i++) {
      if (i > 0 && this.settings.backoffMs > 0) await this.wallTimers.sleep(this.settings.backoffMs);
      const attempt = await this.attempt(outgoing.clock, event, body, headers);
      if (attempt.ok && (outgoing.ignoreAnswers ?? 0) > 0) {
        // answer-ignored: the 200 is taken as lost on the way back, as a gateway that timed out takes it.
        outgoing.ignoreAnswers = (outgoing.ignoreAnswers ?? 0) - 1;
        attempt.ok = false;
        attempt.error = 'answered 200, taken as lost (answer-ignored)';
      }
      event.attempts.push(attempt);
      this.events.emit('webhook.attempt', { event, attempt });
      if (attempt.ok) return this.settle(event, 'delivered');
    }
    this.settle(event, 'failed');
  }

  private settle(event: WebhookEvent, state: PostedState): void {
    event.state = state;
    this.log.trim();
    this.events.emit('webhook.settled', { event });
  }

  private async attempt(
    clock: Clock,
    event: WebhookEvent,
    body: string,
    headers: Record<string, string>,
  ): Promise<WebhookAttempt> {
    const url = event.url as string;
    const number = event.attempts.length + 1;
    const at = formatInstant(clock.now(), this.settings.offsetMinutes);
    const started = performance.now();
    const result = await this.transport.post(url, body, tryHeaders(headers, number));
    const durationMs = Math.round(performance.now() - started);
    // Only a complete 200 answer counts; anything else, a redirect included (never followed), is a failed try.
    if ('status' in result) return { number, at, url, status: result.status, durationMs, ok: result.status === 200 };
    return { number, at, url, error: result.error, durationMs, ok: false };
  }
}
