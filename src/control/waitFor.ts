/**
 * waitFor(messageId).toReach(status): moves the clock of the message's account (a test clock, else the main clock) when it
 * is manual, or watches a realtime one, until the message gets there; or fails with its history.
 */

import { setTimeout } from 'node:timers';
import { ApiError } from '../domain/errors.js';
import { kitSettings } from '../domain/kitSettings.js';
import { type Page, maxListLimit } from '../domain/list.js';
import { finalStatuses, type MessageStatus } from '../domain/message.js';
import { describeRefusals, refusedNotifications } from '../domain/refusedNotifications.js';
import type { WebhookEvent } from '../domain/webhookEvent.js';
import { parseDuration } from '../domain/time.js';
import type { AccountView } from '../engine/inspection.js';
import type { ChangeView, MessageView } from '../domain/messageView.js';
import type { ClockView, WaitView } from './views.js';

/** The moves waiting makes of one clock. */
interface WaitClock {
  state(): ClockView | Promise<ClockView>;
  set(instant: string): Promise<ClockView>;
  runUntilIdle(options?: { limit?: string | number }): Promise<ClockView>;
  next(): Promise<ClockView>;
}

/** What waiting needs of a handle: in process its reads answer at once, over HTTP with promises. */
export interface WaitableHandle {
  readonly clock: WaitClock;
  readonly clocks: {
    get(id: string): ClockView | Promise<ClockView>;
    set(id: string, instant: string): Promise<ClockView>;
    runUntilIdle(id: string, options?: { limit?: string | number }): Promise<ClockView>;
    next(id: string): Promise<ClockView>;
  };
  readonly accounts: { get(apiKey: string): AccountView | Promise<AccountView> };
  readonly messages: { get(id: string): MessageView | Promise<MessageView> };
  readonly webhooks: {
    settled(options?: { account?: string }): Promise<unknown>;
    list(filter: { message: string; page: number; limit: number }): Page<WebhookEvent> | Promise<Page<WebhookEvent>>;
  };
}

/** The clock the message's account lives on: a test clock moves alone, so a wait never fires another test's messages. */
async function clockOf(handle: WaitableHandle, messageId: string): Promise<WaitClock> {
  const message = await handle.messages.get(messageId);
  const { clock: id } = await handle.accounts.get(message.account);
  if (id === null) return handle.clock;
  const { clocks } = handle;
  return {
    state: () => clocks.get(id),
    set: (instant) => clocks.set(id, instant),
    runUntilIdle: (options) => clocks.runUntilIdle(id, options),
    next: () => clocks.next(id),
  };
}

/** A status a message can be waited for: any message status, or `deleted`. */
export type WaitStatus = MessageStatus | 'deleted';

export interface WaitOptions {
  /** How much emulator time may pass (`'5m'`, `'48h'`, ms); default `'1h'`. */
  within?: string | number;
}

/** The wait for one message; see {@link MessageWait.toReach}. */
export interface MessageWait {
  /**
   * Resolves with the message once its status is `status` and every webhook try then under way has ended. A manual clock is moved forward, one of
   * the message's own upcoming changes at a time, never past `within`; a realtime clock is watched.
   * Rejects with the message's history when `within` passes first, or when it ends in another final status; rejects
   * with CONTROL_WEBHOOK_REFUSED, naming the receiver's answers, when it got there but the account's webhook receiver
   * refused every try of that status's notification (the app never heard of it).
   */
  toReach(status: WaitStatus, options?: WaitOptions): Promise<MessageView>;
}

/** How often a realtime clock is looked at (wall-clock ms); it never waits past the deadline. */
const realtimeInterval = 25;

export function waitFor(handle: WaitableHandle, messageId: string): MessageWait {
  return {
    async toReach(status, options = {}) {
      const within = options.within ?? kitSettings.waitWithin.default;
      const span = parseDuration(within);
      if (span === undefined)
        throw new RangeError(`sms-emulator: waitFor: "${within}" is not a duration such as 90s, 5m or 48h.`);
      const moved = await clockOf(handle, messageId);
      const start = await moved.state();
      const deadline = start.now + span;
      for (;;) {
        // The clock first: a concurrent test may move it at any moment, and a message read after it already shows
        // every change up to that time, so a deadline passed meanwhile never fails a message that got there.
        const clock = await moved.state();
        const message = await handle.messages.get(messageId);
        if (message.status === status) {
          // The move that got it there may be a concurrent test's, still posting this message's webhooks: a test
          // that asserts on them next must find them. Only its own clock's: another test's hanging receiver holds
          // no one else's wait.
          await handle.webhooks.settled({ account: message.account });
          const refusals = refusedNotifications(await eventsOf(handle, message.id), status);
          if (refusals.length > 0) throw refusedError(message, status, refusals);
          return message;
        }
        const ended = message.status === 'deleted' || (finalStatuses as readonly string[]).includes(message.status);
        if (ended || clock.now >= deadline) throw new Error(failure(message, status, within, start, clock, ended));
        if (clock.mode === 'realtime')
          await wallClockWait(Math.min(realtimeInterval, (deadline - clock.now) / clock.speed));
        else await stepTowards(moved, message, clock.now, deadline);
      }
    },
  };
}

/** Every webhook event of a message, page by page. */
async function eventsOf(handle: WaitableHandle, messageId: string): Promise<WebhookEvent[]> {
  const events: WebhookEvent[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await handle.webhooks.list({ message: messageId, page, limit: maxListLimit });
    events.push(...items);
    if (items.length === 0 || events.length >= total) return events;
  }
}

/** A wait whose status the app never heard of: its notifications were refused at every try. */
function refusedError(message: MessageView, status: WaitStatus, refusals: readonly WebhookEvent[]): ApiError {
  return new ApiError(
    'CONTROL_WEBHOOK_REFUSED',
    `message ${message.id} reached "${status}", but the webhook receiver of account ${message.account} refused its notification at every try, and no retry is left: ${describeRefusals(refusals)}.`,
  );
}

/**
 * Moves a manual clock on to the message's next own change (its schedule time or a leg's next step), else as far as
 * the deadline. The views show times to the second and a clock counts milliseconds, so the change is not set to by
 * its shown time: the clock jumps to its next queued event (`next`), exactly when it is due, one at a time.
 */
async function stepTowards(clock: WaitClock, message: MessageView, now: number, deadline: number): Promise<void> {
  const due = [
    message.status === 'scheduled' ? message.schedule : null,
    ...message.legs.flatMap((leg) => leg.upcoming.map((change) => change.at)),
  ]
    .filter((time): time is string => time !== null)
    .map((time) => Date.parse(time));
  if (due.length > 0 && Math.min(...due) <= deadline) {
    const { run } = await clock.next();
    if ((run?.fired ?? 0) > 0) return;
  }
  // Nothing of its own is planned: let everything else on its clock happen (a scenario's timeline, a reply) up to the
  // deadline; when that fired nothing, nothing will happen before it, and the clock goes there.
  const { run } = await clock.runUntilIdle({ limit: deadline - now });
  if (run?.idle && run.fired === 0) await setUnlessPassed(clock, deadline);
}

/** Sets the clock to `time`; when a concurrent test already moved it past, that is as good (the caller looks again). */
async function setUnlessPassed(clock: WaitClock, time: number): Promise<void> {
  try {
    await clock.set(new Date(time).toISOString());
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'CLOCK_BACKWARDS') throw error;
  }
}

function wallClockWait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(1, ms)));
}

function failure(
  message: MessageView,
  status: WaitStatus,
  within: string | number,
  start: ClockView,
  clock: ClockView,
  ended: boolean,
): string {
  const changes = (list: readonly ChangeView[]): string =>
    list.map((change) => `${change.status} at ${change.at}`).join(', ') || 'none';
  const why = ended
    ? `it ended "${message.status}"`
    : `it is "${message.status}" after ${within} (${start.time} to ${clock.time})`;
  const legs = message.legs
    .map((leg) => `\n  leg ${leg.recipient}: ${changes(leg.history)}; upcoming: ${changes(leg.upcoming)}`)
    .join('');
  return `sms-emulator: message ${message.id} did not reach "${status}": ${why}.\nhistory: ${changes(message.history)}${legs}`;
}

/**
 * The wait over HTTP (`POST /_emulator/messages/{id}/wait`): the same wait on the in-process handle, answering the
 * message and where its clock then stands; a wait that ends otherwise is CONTROL_WAIT_FAILED with the same words.
 */
export async function waitAnswer(
  handle: WaitableHandle,
  messageId: string,
  status: WaitStatus,
  within: string | number | undefined,
): Promise<WaitView> {
  let message: MessageView;
  try {
    message = await waitFor(handle, messageId).toReach(status, within === undefined ? {} : { within });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('CONTROL_WAIT_FAILED', (error as Error).message.replace(/^sms-emulator: /, ''));
  }
  const { clock: id } = await handle.accounts.get(message.account);
  const { now, time } = await (id === null ? handle.clock.state() : handle.clocks.get(id));
  return { message, clock: { id, now, time } };
}
