/**
 * A delivery event that was skipped (no webhook URL), kept as the few facts it was made of and built
 * into a full event the first time anyone reads it.
 *
 * Why: with no URL, a 7-day jump over 100,000 messages makes 200,000 skipped events of which the log keeps only the
 * newest 10,000 and nobody reads most; building each (id text, times, payload) was over half of the jump
 * (docs/decisions/0001-fast-lane.md). What the payload shows of the message as it was then (its delivery date) is
 * captured now; the rest never changes once a leg has moved (the credit is set before the first move).
 */

import type { MessageRecord, MessageStatus } from '../domain/message.js';
import { renderMessage } from '../domain/representation.js';
import { type Random, formatUuid } from '../state/random.js';
import { type WebhookEvent, type WebhookState, webhookEvent } from '../domain/webhookEvent.js';
import type { DeferredEvent } from './log.js';

export class SkippedDelivery implements DeferredEvent {
  private readonly deliveredAt: number | null;
  /** The four random words of the id as signed 32-bit numbers (small integers take no memory of their own). */
  private readonly w0: number;
  private readonly w1: number;
  private readonly w2: number;
  private readonly w3: number;
  private built: WebhookEvent | undefined;

  /** Draws the four random words of its id from `ids` now, so ids stay the same for a seed; `apiBase` as links used it then. */
  constructor(
    private readonly message: MessageRecord,
    private readonly recipient: string,
    private readonly status: MessageStatus,
    private readonly at: number,
    private readonly apiBase: string,
    private readonly offsetMinutes: number,
    ids: Random,
  ) {
    this.deliveredAt = message.deliveredAt;
    this.w0 = ids.word() | 0;
    this.w1 = ids.word() | 0;
    this.w2 = ids.word() | 0;
    this.w3 = ids.word() | 0;
  }

  get deferred(): true {
    return true;
  }

  get account(): string {
    return this.message.apiKey;
  }

  get environment(): MessageRecord['environment'] {
    return this.message.environment;
  }

  get messageId(): string {
    return this.message.id;
  }

  /** Skipped until a redelivery (which reads, and so builds, the event first) changes it. */
  get state(): WebhookState {
    return this.built?.state ?? 'skipped';
  }

  hasId(id: string): boolean {
    // The first eight digits are the first word: most entries are told apart without formatting an id.
    return Number.parseInt(id.slice(0, 8), 16) === this.w0 >>> 0 && id === this.id();
  }

  event(): WebhookEvent {
    this.built ??= webhookEvent({
      id: this.id(),
      kind: 'delivery',
      message: this.message,
      recipient: this.recipient,
      status: this.status,
      at: this.at,
      offsetMinutes: this.offsetMinutes,
      url: null,
      state: 'skipped',
      payload: renderMessage(
        { ...this.message, deliveredAt: this.deliveredAt },
        { apiBase: this.apiBase, offsetMinutes: this.offsetMinutes },
        undefined,
        {
          recipient: this.recipient,
          status: this.status,
        },
      ),
    });
    return this.built;
  }

  private id(): string {
    return formatUuid([this.w0 >>> 0, this.w1 >>> 0, this.w2 >>> 0, this.w3 >>> 0]);
  }
}
