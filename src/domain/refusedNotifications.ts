/**
 * Whether an app heard of a message's status: the notifications of that status its webhook receiver refused at every
 * try, and how a failed wait names the receiver's answers.
 */

import { quoteExcerpt } from './excerpt.js';
import type { WebhookAttempt, WebhookEvent } from './webhookEvent.js';

/** A try the receiver refused: an answer outside 2xx, or none (a 200 that answer-ignored takes as lost is not one). */
function refused(attempt: WebhookAttempt): boolean {
  return attempt.status === undefined || attempt.status < 200 || attempt.status > 299;
}

/**
 * The message's delivery notifications of `status` that no one took: for each recipient whose notifications of that
 * status (duplicates included) all ended `failed`, out of tries, every try refused. Empty when each was delivered,
 * skipped (no webhook URL), is still on its way, or was answered 2xx at some try.
 */
export function refusedNotifications(events: readonly WebhookEvent[], status: string): WebhookEvent[] {
  const byRecipient = new Map<string, WebhookEvent[]>();
  for (const event of events) {
    if (event.kind !== 'delivery' || event.status !== status) continue;
    const list = byRecipient.get(event.recipient);
    if (list === undefined) byRecipient.set(event.recipient, [event]);
    else list.push(event);
  }
  const untaken = (list: WebhookEvent[]): boolean =>
    list.every((event) => event.state === 'failed' && event.attempts.length > 0 && event.attempts.every(refused));
  return [...byRecipient.values()].filter(untaken).flat();
}

/** The most refused notifications a failure names one by one; the rest are counted. */
const namedAtMost = 3;

/** One answer as a refusal shows it: a status with the start of its body, or why there was none. */
export interface ShownAnswer {
  status?: number;
  answer?: string;
  error?: string;
}

/** Answers in order, each distinct one once with how many tries got it: `401 "invalid signature" ×4`. */
export function describeAnswers(answers: readonly ShownAnswer[]): string {
  const shown: { text: string; tries: number }[] = [];
  for (const answer of answers) {
    const text =
      answer.status === undefined
        ? `no answer (${answer.error ?? 'failed'})`
        : answer.answer === undefined || answer.answer === ''
          ? `${answer.status}`
          : `${answer.status} ${quoteExcerpt(answer.answer)}`;
    const last = shown.at(-1);
    if (last?.text === text) last.tries += 1;
    else shown.push({ text, tries: 1 });
  }
  return shown.map(({ text, tries }) => (tries === 1 ? text : `${text} ×${tries}`)).join(', ');
}

/**
 * The receiver's answers to each refused notification, bounded: per notification its URL and its answers
 * (`describeAnswers`), up to three notifications, then how many more.
 */
export function describeRefusals(events: readonly WebhookEvent[]): string {
  const lines = events
    .slice(0, namedAtMost)
    .map(
      (event) =>
        `${event.recipient} "${event.status}" to ${event.url ?? 'nowhere'}: ${describeAnswers(event.attempts)}`,
    );
  const more = events.length - lines.length;
  return lines.join('; ') + (more > 0 ? `; and ${more} more` : '');
}
