/** The typed events that the engine and webhooks emit, and that webhooks, journals and tests subscribe to. */

import { EventEmitter } from 'node:events';
import type { Environment, Leg, MessageRecord, MessageStatus } from './domain/message.js';
import type { ClockIncident } from './state/clock.js';
import type { WebhookAttempt, WebhookEvent } from './webhooks/log.js';

export interface EmulatorEvents {
  /** A message was accepted (sent now or scheduled). */
  'message.created': { message: MessageRecord };
  /** One leg changed status; `message.status` is the aggregate after the change. */
  'leg.status': { message: MessageRecord; leg: Leg; status: MessageStatus; at: number };
  /** An inbound reply arrived. */
  'reply.received': { reply: MessageRecord; original: MessageRecord };
  /** One try of posting a webhook event ended (answered, failed or timed out). */
  'webhook.attempt': { event: WebhookEvent; attempt: WebhookAttempt };
  /** A webhook event reached its final state: delivered, or failed with its tries spent. */
  'webhook.settled': { event: WebhookEvent };
  /** A control command moved or reconfigured the clock (epoch ms before and after; `command` as given). */
  'clock.moved': { from: number; to: number; mode: string; speed: number; command: Record<string, unknown> };
  /** A control call created, changed or deleted an account (balance, webhook URLs, opt-outs, scopes). */
  'account.changed': { apiKey: string };
  /** The whole state was replaced (reset or snapshot import): views built before it are stale. */
  'state.replaced': { reason: 'reset' | 'restore' };
  /** A scenario fault acted on an API request: added latency and/or answered with an error code. */
  'fault.injected': { at: number; environment: Environment; account: string; operation: string; latencyMs: number; code?: string };
  /** A clock task threw (failed) or could not be carried out (skipped); the clock went on. */
  'clock.incident': { incident: ClockIncident };
}

export type EventName = keyof EmulatorEvents;

/** A typed wrapper around EventEmitter so a listener's payload type follows from the event name. */
export class EmulatorEmitter {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  on<E extends EventName>(event: E, listener: (payload: EmulatorEvents[E]) => void): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }

  emit<E extends EventName>(event: E, payload: EmulatorEvents[E]): void {
    this.emitter.emit(event, payload);
  }
}
