/** The sms-emulator matchers for vitest's expect: toHaveSent, toHaveReceivedWebhook, toHaveStatus, with failures that show what did happen. */

import type { ChangeView, MessageView } from '../engine/inspection.js';
import type { WebhookCatcher } from '../testing/webhookCatcher.js';

/** What `toHaveSent` looks for; every field given must match. */
export interface SentExpectation {
  /** A recipient of the message. */
  to?: string;
  /** The whole text, or a pattern it matches. */
  text?: string | RegExp;
  client_reference?: string;
  status?: string;
}

/** What `toHaveReceivedWebhook` looks for in the payloads that reached the catcher; every field given must match. */
export interface WebhookExpectation {
  /** The message id (for a reply: the reply's own id). */
  id?: string;
  status?: string;
  type?: 'sms' | 'sms-reply';
  /** The recipient the payload is about (for a reply: the number that replied). */
  recipient?: string;
  /** The text, or a pattern it matches (for a reply: the reply text). */
  text?: string | RegExp;
  client_reference?: string;
}

/** What the account-level matchers read: the test's messages (at once in process, or a promise over HTTP) and its catcher. */
export interface SmsSubject {
  readonly account: { readonly apiKey: string };
  /** The account's messages, newest first. */
  messages(): MessageView[] | Promise<MessageView[]>;
  readonly catcher: WebhookCatcher;
}

/** A message as `toHaveStatus` reads it: an API message object, or a control view with its history. */
export interface StatusSubject {
  id: string;
  status: string;
  history?: readonly ChangeView[];
}

export interface SmsMatchers<R = unknown> {
  /** The test's account sent a message matching `expected` (`to`, `text`, `client_reference`, `status`). Awaitable; over HTTP it must be awaited. */
  toHaveSent(expected: SentExpectation): R;
  /** The test's webhook catcher received a payload matching `expected` (`id`, `status`, `type`, `recipient`, `text`). */
  toHaveReceivedWebhook(expected: WebhookExpectation): R;
  /** The message object has this status; a failure shows its history when it has one. */
  toHaveStatus(status: string): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any -- vitest's own declaration shape
  interface Matchers<T = any> extends SmsMatchers<T> {}
}

interface Result {
  pass: boolean;
  message: () => string;
}

const textMatches = (actual: string, expected: string | RegExp | undefined): boolean =>
  expected === undefined || (typeof expected === 'string' ? actual === expected : expected.test(actual));

const describe = (expected: object): string =>
  Object.entries(expected)
    .map(([name, value]) => `${name} ${value instanceof RegExp ? String(value) : JSON.stringify(value)}`)
    .join(', ');

const changes = (history: readonly ChangeView[] | undefined): string =>
  history === undefined ? '' : ` (history: ${history.map((change) => `${change.status} at ${change.at}`).join(', ') || 'none'})`;

function sentResult(subject: SmsSubject, expected: SentExpectation, messages: MessageView[], isNot: boolean): Result {
  const matches = messages.filter(
    (message) =>
      (expected.to === undefined || message.recipient.includes(expected.to)) &&
      textMatches(message.message, expected.text) &&
      (expected.client_reference === undefined || message.client_reference === expected.client_reference) &&
      (expected.status === undefined || message.status === expected.status),
  );
  const sent = messages.map((message) => `\n  - to ${message.recipient.join(', ')}: ${JSON.stringify(message.message)} (${message.status}, id ${message.id})`);
  const what = `account ${subject.account.apiKey} ${isNot ? 'not ' : ''}to have sent a message with ${describe(expected)}`;
  return {
    pass: matches.length > 0,
    message: () => `expected ${what}; it sent ${sent.length === 0 ? 'nothing' : `${sent.length}:${sent.join('')}`}`,
  };
}

export const smsMatchers = {
  toHaveSent(this: { isNot: boolean }, subject: SmsSubject, expected: SentExpectation): Result | Promise<Result> {
    const messages = subject.messages();
    return Array.isArray(messages)
      ? sentResult(subject, expected, messages, this.isNot)
      : messages.then((list) => sentResult(subject, expected, list, this.isNot));
  },

  toHaveReceivedWebhook(this: { isNot: boolean }, subject: SmsSubject | WebhookCatcher, expected: WebhookExpectation): Result {
    const catcher = 'catcher' in subject ? subject.catcher : subject;
    const bodies = catcher.received.map((request) => request.body as Record<string, unknown>);
    const matches = bodies.filter(
      (body) =>
        typeof body === 'object' &&
        body !== null &&
        (expected.id === undefined || body.id === expected.id) &&
        (expected.status === undefined || body.status === expected.status) &&
        (expected.type === undefined || body.type === expected.type) &&
        (expected.recipient === undefined || (Array.isArray(body.recipient) && body.recipient.includes(expected.recipient))) &&
        textMatches(String(body.message), expected.text) &&
        (expected.client_reference === undefined || body.client_reference === expected.client_reference),
    );
    const seen = bodies.map((body) =>
      typeof body === 'object' && body !== null
        ? `\n  - ${String(body.type)} ${String(body.id)} ${String(body.status)} to ${String(body.recipient)}: ${JSON.stringify(body.message)}`
        : `\n  - ${JSON.stringify(body)}`,
    );
    return {
      pass: matches.length > 0,
      message: () =>
        `expected the webhook catcher ${this.isNot ? 'not ' : ''}to have received a payload with ${describe(expected)}; it received ${
          seen.length === 0 ? 'nothing' : `${seen.length}:${seen.join('')}`
        }`,
    };
  },

  toHaveStatus(this: { isNot: boolean }, message: StatusSubject, status: string): Result {
    return {
      pass: message.status === status,
      message: () =>
        `expected message ${message.id} ${this.isNot ? 'not ' : ''}to have status "${status}"; it is "${message.status}"${changes(message.history)}`,
    };
  },
};
