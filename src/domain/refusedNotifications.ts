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

/**
 * The receiver's answers to each refused notification, bounded: per notification its URL and each distinct answer in
 * order (status and a quoted start of its body, or why there was none) with how many tries got it.
 */
export function describeRefusals(events: readonly WebhookEvent[]): string {
  const lines = events.slice(0, namedAtMost).map((event) => {
    const answers: { text: string; tries: number }[] = [];
    for (const attempt of event.attempts) {
      const text =
        attempt.status === undefined
          ? `no answer (${attempt.error ?? 'failed'})`
          : attempt.answer === undefined
            ? `${attempt.status}`
            : `${attempt.status} ${quoteExcerpt(attempt.answer)}`;
      const last = answers.at(-1);
      if (last?.text === text) last.tries += 1;
      else answers.push({ text, tries: 1 });
    }
    const shown = answers.map(({ text, tries }) => (tries === 1 ? text : `${text} ×${tries}`)).join(', ');
    return `${event.recipient} "${event.status}" to ${event.url ?? 'nowhere'}: ${shown}`;
  });
  const more = events.length - lines.length;
  return lines.join('; ') + (more > 0 ? `; and ${more} more` : '');
}
