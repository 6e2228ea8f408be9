/** The typed events that the engine and webhooks emit, and that webhooks, journals and tests subscribe to. */

import { EventEmitter } from 'node:events';
import type { Leg, MessageRecord, MessageStatus } from './domain/message.js';
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
