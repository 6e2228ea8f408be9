/**
 * When a recheck sends each request: at its recorded offset divided by the pace factor, but never before the provider
 * has had, since it was sent the message, the time the transcript shows it took to move it (from the send to each
 * notification the app had seen before this request). A read the app made after waiting for `delivered` then still
 * finds the message delivered, however much the rest of the session is compressed; it also names the notifications
 * the app had seen before each request, for a recheck that hears them to wait for (a loaded provider moves later).
 */

import type { Transcript } from './transcript.js';

/** A recorded move: the request that sent the message, how long after it the notification came, and what it said. */
interface Move {
  sentBy: string;
  afterMs: number;
  /** The message's id placeholder (`{{id:3}}`). */
  message: string;
  status: unknown;
}

/** A notification the app had seen: the message's id placeholder and the status it said. */
export interface SeenNotification {
  message: string;
  status: unknown;
}

/** The id placeholder an accepted send's answer issued (`{{id:3}}`), if it is one. */
function issuedId(body: unknown): string | undefined {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' && /^\{\{id:\d+\}\}$/.test(id) ? id : undefined;
}

export class RecheckPace {
  /** For each request line's id: its recorded offset and the moves seen before it. */
  private readonly before = new Map<string, { t: number; moves: Move[] }>();
  /** Every recorded move, for how long to wait for the notifications after the last request. */
  private readonly moves: Move[] = [];
  private readonly lastT: number;

  /**
   * @param factor how many times faster than recorded the requests go (1: as recorded); gaps the provider needed to
   *   move a message are kept whole
   */
  constructor(
    transcript: Transcript,
    private readonly factor = 1,
  ) {
    if (!(factor >= 1)) throw new RangeError(`the pace factor is ${factor}; it must be 1 or more`);
    const sentAt = new Map<string, { request: string; t: number }>();
    const requestT = new Map<string, number>();
    for (const event of transcript.events) {
      if (event.type === 'request') {
        requestT.set(event.id, event.t);
        this.before.set(event.id, { t: event.t, moves: [...this.moves] });
      } else if (event.type === 'answer') {
        const id = issuedId(event.body);
        const t = requestT.get(event.request);
        if (id !== undefined && t !== undefined && !sentAt.has(id)) sentAt.set(id, { request: event.request, t });
      } else if (event.type === 'webhook' && event.attempt === 1) {
        const message = issuedId(event.payload) ?? '';
        const sent = sentAt.get(message);
        if (sent !== undefined)
          this.moves.push({
            sentBy: sent.request,
            afterMs: event.t - sent.t,
            message,
            status: (event.payload as { status?: unknown }).status,
          });
      }
    }
    this.lastT = transcript.events.at(-1)?.t ?? 0;
  }

  private floor(moves: readonly Move[], sentAt: ReadonlyMap<string, number>): number {
    let floor = Number.NEGATIVE_INFINITY;
    for (const move of moves) {
      const sent = sentAt.get(move.sentBy);
      if (sent !== undefined) floor = Math.max(floor, sent + move.afterMs);
    }
    return floor;
  }

  /**
   * The epoch ms at which the request with this line id goes out.
   *
   * @param startMs when the recheck started
   * @param sentAt when each request already sent went out, by its line id
   */
  dueOf(request: string, startMs: number, sentAt: ReadonlyMap<string, number>): number {
    const known = this.before.get(request);
    if (known === undefined) return startMs;
    return Math.max(startMs + known.t / this.factor, this.floor(known.moves, sentAt));
  }

  /** The epoch ms by which every notification the transcript holds is due from the provider. */
  endOf(startMs: number, sentAt: ReadonlyMap<string, number>): number {
    return Math.max(startMs + this.lastT / this.factor, this.floor(this.moves, sentAt));
  }

  /**
   * The notifications the app had seen before the request with this line id: each message's last one (what the app
   * knew of it then), so a notification the provider no longer posts before it (or an extra one) is not waited on.
   */
  seenBefore(request: string): SeenNotification[] {
    const last = new Map<string, unknown>();
    for (const move of this.before.get(request)?.moves ?? []) last.set(move.message, move.status);
    return [...last].map(([message, status]) => ({ message, status }));
  }
}
