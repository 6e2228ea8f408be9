/**
 * Posts webhook events: in order per message, with the spec's re-attempts, a timeout, optional
 * signing and the delivery behaviours, and a log entry for every try. Never blocks the API or the clock.
 */

import { type Environment, type MessageRecord, type MessageStatus, environments } from '../domain/message.js';
import { type RenderContext, renderMessage } from '../domain/representation.js';
import { tryHeaders, webhookHeaders } from './webhookHeaders.js';
import type { BehaviourDecider, NotificationSubject } from './behaviourDecider.js';
import { orphanPayload } from './orphanPayload.js';
import { BehaviourRates, type WebhookChaos } from './behaviourRates.js';
import { Flights } from './flights.js';
import { MessageQueues, type Queued } from './messageQueues.js';
import { type DeliveryPlan, planDelivery } from '../domain/deliveryBehaviour.js';
import { ApiError } from '../domain/errors.js';
import type { OwnAddresses } from '../domain/ownAddress.js';
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
  maxRedeliveries,
  webhookEvent,
} from '../domain/webhookEvent.js';
import { WebhookLog } from './log.js';
import { SkippedDelivery } from './skippedDelivery.js';
import { type WebhookReceiver, WebhookTransport } from './transport.js';

export interface DispatcherSettings {
  retries: number;
  backoffMs: number;
  timeoutMs: number;
  logLimit: number;
  /** Signs the posts of an account that is gone (the emulator-wide webhookSigningSecret); each account's own signs its posts. */
  signingSecret: string | undefined;
  notifyOn: readonly string[];
  offsetMinutes: number;
  /** The rate options at start-up: behaviours with a probability (behaviourRates.ts). */
  rates: WebhookChaos;
}

/** Why an event's remaining tries were not made: its account's URL changed while they were due. */
const urlChanged =
  'not tried: the webhook URL changed since this event was posted (redeliver it to post it to the new one)';

/** One event on its way: queued behind its message's others (MessageQueues), held until `notBefore` on its clock. */
interface Outgoing extends Queued {
  event: WebhookEvent;
  /** answer-ignored: how many more 200 answers count as lost. */
  ignoreAnswers?: number;
}

export class WebhookDispatcher {
  readonly log: WebhookLog;
  /** Pumps and redeliveries under way, in the emulator and per clock. */
  private readonly flights = new Flights();
  private readonly queues = new MessageQueues<Outgoing>((outgoing) => this.post(outgoing), this.flights);
  /** The rate options' behaviours, changeable at runtime (the `webhooks.chaos` control operations). */
  readonly rates: BehaviourRates;
  /** The scenario's delivery behaviours; none until one is set. */
  private behaviours: BehaviourDecider = () => [];
  /** Notifications a reorder holds back, by message, until the message's next one has been queued. */
  private readonly heldBack = new Map<string, Outgoing[]>();
  /** Closed by close(): tries on the wire stop at once and are logged as failed, not left hanging. */
  private readonly transport: WebhookTransport;
  /** How many times each event was redelivered (forgotten with the event). */
  private readonly redeliveries = new WeakMap<WebhookEvent, number>();

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
    /** Where this emulator can be reached: a try whose connection reaches it is not made (ownGuard.ts). */
    own: OwnAddresses,
  ) {
    this.log = new WebhookLog(settings.logLimit);
    this.transport = new WebhookTransport(settings.timeoutMs, own);
    this.rates = new BehaviourRates(settings.rates, random);
    const notifyOn = new Set(settings.notifyOn);
    events.on('leg.status', ({ message, leg, status, at }) => {
      // A status that is not posted still comes after what a reorder holds: the held go out now, never lost.
      if (!notifyOn.has(status)) return this.release(message.id);
      const account = this.store.accounts.get(message.apiKey);
      const url = account?.environments[message.environment].webhookUrl;
      if (account === undefined || url == null) {
        this.release(message.id);
        return this.skip(message, leg.recipient, status, at);
      }
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

  /**
   * Resolves once every webhook try that has started, or is due, has finished: of `clock`'s accounts only when given
   * (a receiver that hangs on another clock holds no one else's move), else of the whole emulator.
   */
  settled(clock?: Clock): Promise<void> {
    return this.flights.settled(clock);
  }

  /**
   * The tries under way on `clock`, or undefined when there are none: what a move of that clock waits for at each due
   * instant, the clock standing there, before it moves on (Clock's `Settle`).
   */
  settling(clock: Clock): Promise<void> | undefined {
    return this.flights.pending(clock);
  }

  /**
   * Posts a logged event again to the account's current webhook URL (else the one it had); resolves when its tries end.
   * One event is redelivered `maxRedeliveries` times at most (WEBHOOK_REDELIVERY_LIMIT, nothing changed).
   */
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
    const redelivered = this.redeliveries.get(event) ?? 0;
    if (redelivered >= maxRedeliveries) {
      throw new ApiError(
        'WEBHOOK_REDELIVERY_LIMIT',
        `Webhook event ${event.id} was already redelivered ${redelivered} times, as many as one event may be.`,
      );
    }
    this.redeliveries.set(event, redelivered + 1);
    event.url = url;
    event.state = 'pending';
    const clock = account?.clock ?? this.clock;
    await this.flights.track(clock, this.post({ event, notBefore: 0, clock }));
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
        this.queues.forget(message.id);
        this.heldBack.delete(message.id);
      }
    }
  }

  /** Forgets the log and every queued event (reset); tries already on the wire finish unrecorded. */
  reset(): void {
    this.log.clear();
    this.queues.clear();
    this.heldBack.clear();
    this.rates.reset();
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
    const subject: NotificationSubject = { kind, message, recipient, status };
    const now = clock.now();
    const make = (): Outgoing => this.logged(subject, clock, url, payload);
    const outgoing = make();
    if (url === null) {
      this.release(orderKey);
      return this.events.emit('webhook.settled', { event: outgoing.event });
    }
    // Behaviours match a reply notification by the status `reply`, not the status its message record carries.
    const decided = kind === 'reply' ? { ...subject, status: 'reply' } : subject;
    const plan = planDelivery([...this.behaviours(decided), ...this.rates.decide(decided)]);
    const deliveries = [outgoing];
    // A duplicate is a re-send of this notification: the same event id and body, as a gateway re-sends.
    while (deliveries.length < plan.deliveries) {
      const copy = make();
      copy.event.duplicateOf = outgoing.event.id;
      copy.event.behaviours.push('duplicate');
      deliveries.push(copy);
    }
    for (const [index, delivery] of deliveries.entries()) this.shaped(delivery, plan, now, index * plan.spacingMs);
    if (plan.orphan) {
      // One more like it, for a message id the account never sent, in a queue of its own.
      const id = this.random.uuid();
      const stranger = this.logged(
        { ...subject, message: { ...message, id } },
        clock,
        url,
        orphanPayload(payload, message.id, id),
      );
      stranger.event.behaviours.push('orphan');
      this.queues.push(id, clock, [stranger]);
    }
    if (plan.heldForNext) {
      // Held until the message's next notification is queued: that one goes first, these after it.
      this.heldBack.set(orderKey, [...(this.heldBack.get(orderKey) ?? []), ...deliveries]);
    } else this.release(orderKey, deliveries);
  }

  /**
   * Queues `deliveries` and then what a reorder held back for the same message: still held (state `delayed`) while a
   * late hold lasts.
   */
  private release(orderKey: string, deliveries: Outgoing[] = []): void {
    const held = this.heldBack.get(orderKey) ?? [];
    this.heldBack.delete(orderKey);
    const first = deliveries[0] ?? held[0];
    if (first === undefined) return;
    for (const copy of held) copy.event.state = copy.notBefore > copy.clock.now() ? 'delayed' : 'pending';
    this.queues.push(orderKey, first.clock, [...deliveries, ...held]);
  }

  /** A new event, logged; `skipped` when there is no URL to post it to. */
  private logged(subject: NotificationSubject, clock: Clock, url: string | null, payload: unknown): Outgoing {
    const at = clock.now();
    const state = url === null ? 'skipped' : 'pending';
    const offsetMinutes = this.settings.offsetMinutes;
    const event = webhookEvent({ id: this.random.uuid(), ...subject, at, offsetMinutes, url, state, payload });
    this.log.add(event);
    return { event, notBefore: at, clock };
  }

  /** One delivery as the plan has it: marked, held (a duplicate's copy `spacedMs` later than the first), its answers ignored. */
  private shaped(delivery: Outgoing, plan: DeliveryPlan, now: number, spacedMs: number): void {
    delivery.event.behaviours.push(...plan.marks);
    if (plan.holdMs !== undefined || plan.heldForNext || spacedMs > 0) delivery.event.state = 'delayed';
    delivery.notBefore = now + spacedMs + (plan.holdMs ?? 0);
    if (plan.ignoredAnswers > 0) delivery.ignoreAnswers = plan.ignoredAnswers;
  }

  private async post(outgoing: Outgoing): Promise<void> {
    const { event } = outgoing;
    const body = JSON.stringify(event.payload);
    event.state = 'pending';
    const headers = webhookHeaders(event.duplicateOf ?? event.id, body, this.signingSecretOf(event));
    const tries = this.settings.retries + 1;
    for (let i = 0; i < tries && !this.transport.isClosed; i++) {
      if (i > 0 && this.settings.backoffMs > 0) await this.wallTimers.sleep(this.settings.backoffMs);
      if (this.urlChanged(event)) return this.stop(outgoing.clock, event, urlChanged);
      const [attempt, final] = await this.attempt(outgoing.clock, event, body, headers);
      if (attempt.ok && (outgoing.ignoreAnswers ?? 0) > 0) {
        // answer-ignored: the 200 is taken as lost on the way back, as a gateway that timed out takes it.
        outgoing.ignoreAnswers = (outgoing.ignoreAnswers ?? 0) - 1;
        attempt.ok = false;
        attempt.error = 'answered 200, taken as lost (answer-ignored)';
      }
      event.attempts.push(attempt);
      this.events.emit('webhook.attempt', { event, attempt });
      if (attempt.ok) return this.settle(event, 'delivered');
      if (final) break;
    }
    this.settle(event, 'failed');
  }

  /**
   * Whether the event's account has another webhook URL now than the one the event is posted to: its remaining tries are
   * not made to the old one (a redelivery goes to the new one). An account deleted since has none to compare.
   */
  private urlChanged(event: WebhookEvent): boolean {
    const current = this.store.accounts.get(event.account)?.environments[event.environment].webhookUrl;
    return current !== undefined && current !== event.url;
  }

  /** Ends an event without a try: the reason is logged as a try that was not made, and the event fails. */
  private stop(clock: Clock, event: WebhookEvent, error: string): void {
    const attempt: WebhookAttempt = {
      number: event.attempts.length + 1,
      at: formatInstant(clock.now(), this.settings.offsetMinutes),
      url: event.url as string,
      error,
      durationMs: 0,
      ok: false,
    };
    event.attempts.push(attempt);
    this.events.emit('webhook.attempt', { event, attempt });
    this.settle(event, 'failed');
  }

  /** The secret that signs an event's posts: its account's as it is now (null: unsigned). */
  private signingSecretOf(event: WebhookEvent): string | undefined {
    const account = this.store.accounts.get(event.account);
    return (account === undefined ? this.settings.signingSecret : account.webhookSigningSecret) ?? undefined;
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
  ): Promise<[attempt: WebhookAttempt, final: boolean]> {
    const url = event.url as string;
    const number = event.attempts.length + 1;
    const at = formatInstant(clock.now(), this.settings.offsetMinutes);
    const started = performance.now();
    const result = await this.transport.post(url, body, tryHeaders(headers, number));
    const durationMs = Math.round(performance.now() - started);
    // Only a complete 200 answer counts; anything else, a redirect included (never followed), is a failed try.
    if ('status' in result) {
      const { status, answer } = result;
      const ok = status === 200;
      return [
        answer === undefined
          ? { number, at, url, status, durationMs, ok }
          : { number, at, url, status, answer, durationMs, ok },
        false,
      ];
    }
    // A connection that reached the emulator itself would reach it again: no re-attempt.
    return [{ number, at, url, error: result.error, durationMs, ok: false }, result.ownAddress === true];
  }
}
