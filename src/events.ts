/** The typed events that the engine and webhooks emit, and that webhooks, journals and tests subscribe to. */

import type { Environment, Leg, MessageRecord, MessageStatus } from './domain/message.js';
import type { LegView, MessageView } from './domain/messageView.js';
import type { ReadonlyDeep } from './domain/readonlyDeep.js';
import type { ClockIncident } from './state/clock.js';
import type { WebhookAttempt, WebhookEvent } from './domain/webhookEvent.js';

/** The events as the engine emits them, with its live records: for the emulator's own subscribers only. */
export interface EngineEvents {
  /** A message was accepted (sent now or scheduled). */
  'message.created': { message: MessageRecord };
  /** One leg changed status; `message.status` is the aggregate after the change. */
  'leg.status': { message: MessageRecord; leg: Leg; status: MessageStatus; at: number };
  /** An inbound reply arrived. */
  'reply.received': { reply: MessageRecord; original: MessageRecord };
  /** One try of posting a webhook event ended (answered, failed or timed out). */
  'webhook.attempt': { event: WebhookEvent; attempt: WebhookAttempt };
  /** A webhook event reached its final state: delivered, failed with its tries spent, or skipped (no webhook URL set). */
  'webhook.settled': { event: WebhookEvent };
  /** A control command moved or reconfigured a clock (epoch ms before and after; `command` as given; `clock` a test clock's id, null for the main clock). */
  'clock.moved': {
    clock: string | null;
    from: number;
    to: number;
    mode: string;
    speed: number;
    command: Record<string, unknown>;
  };
  /** A control call created, changed or deleted an account (balance, webhook URLs, opt-outs, scopes). */
  'account.changed': { apiKey: string };
  /** The whole state was replaced (reset or snapshot import): views built before it are stale. */
  'state.replaced': { reason: 'reset' | 'restore' };
  /** A scenario fault acted on an API request: added latency and/or answered with an error code, or made the transport fail (`network`). */
  'fault.injected': {
    at: number;
    environment: Environment;
    account: string;
    operation: string;
    latencyMs: number;
    code?: string;
    network?: string;
  };
  /** A clock task threw (failed) or could not be carried out (skipped); the clock went on. */
  'clock.incident': { incident: ClockIncident; clock: string | null };
}

export type EventName = keyof EngineEvents;

/** The events as `emulator.on` listeners receive them: read-only copies, never the live records. */
export interface EmulatorEvents {
  /** A message was accepted (sent now or scheduled). */
  'message.created': { readonly message: ReadonlyDeep<MessageView> };
  /** One leg changed status; `message.status` is the aggregate after the change, `at` the emulator time. */
  'leg.status': {
    readonly message: ReadonlyDeep<MessageView>;
    readonly leg: ReadonlyDeep<LegView>;
    readonly status: MessageStatus;
    readonly at: string;
  };
  /** An inbound reply arrived. */
  'reply.received': { readonly reply: ReadonlyDeep<MessageView>; readonly original: ReadonlyDeep<MessageView> };
  /** One try of posting a webhook event ended (answered, failed or timed out). */
  'webhook.attempt': { readonly event: ReadonlyDeep<WebhookEvent>; readonly attempt: ReadonlyDeep<WebhookAttempt> };
  /** A webhook event reached its final state: delivered, failed with its tries spent, or skipped (no webhook URL set). */
  'webhook.settled': { readonly event: ReadonlyDeep<WebhookEvent> };
  /** A clock task threw (failed) or could not be carried out (skipped); the clock went on. */
  'clock.incident': { readonly incident: ReadonlyDeep<ClockIncident>; readonly clock: string | null };
  /** A control command moved or reconfigured a clock (epoch ms before and after; `command` as given; `clock` a test clock's id, null for the main clock). */
  'clock.moved': ReadonlyDeep<EngineEvents['clock.moved']>;
  /** A control call created, changed or deleted an account (balance, webhook URLs, opt-outs, scopes). */
  'account.changed': ReadonlyDeep<EngineEvents['account.changed']>;
  /** The whole state was replaced (reset or snapshot import): views built before it are stale. */
  'state.replaced': ReadonlyDeep<EngineEvents['state.replaced']>;
  /** A scenario fault acted on an API request: added latency and/or answered with an error code. */
  'fault.injected': ReadonlyDeep<EngineEvents['fault.injected']>;
}

/**
 * A typed emitter: a listener's payload type follows from the event name. Listener lists are replaced, never changed,
 * when someone subscribes or leaves, so emit walks the current list without copying it (node's EventEmitter copies it
 * on every emit: a clock jump emits hundreds of thousands, docs/decisions/0001-fast-lane.md).
 */
export class EmulatorEmitter {
  private readonly listeners = new Map<EventName, readonly ((payload: never) => void)[]>();

  on<E extends EventName>(event: E, listener: (payload: EngineEvents[E]) => void): () => void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return () => {
      const current = this.listeners.get(event) ?? [];
      const index = current.indexOf(listener);
      if (index >= 0) this.listeners.set(event, current.toSpliced(index, 1));
    };
  }

  /** True when anyone listens to `event`: a payload that is costly to build is then built only for them. */
  listens(event: EventName): boolean {
    return (this.listeners.get(event)?.length ?? 0) > 0;
  }

  emit<E extends EventName>(event: E, payload: EngineEvents[E]): void {
    const listeners = this.listeners.get(event) as readonly ((payload: EngineEvents[E]) => void)[] | undefined;
    if (listeners === undefined) return;
    for (const listener of listeners) listener(payload);
  }
}
