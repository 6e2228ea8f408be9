/** The sms-emulator matchers for vitest's expect: toHaveSent, toHaveReceivedWebhook, toHaveStatus, toHaveMadeRequest, with failures that show what did happen. */

import type { Environment } from '../domain/environment.js';
import type { Page } from '../domain/list.js';
import type { MessageType, ShownStatus } from '../domain/message.js';
import type { ChangeView, MessageView } from '../domain/messageView.js';
import type { JournalEntry, JournalFilter } from '../journal/requestJournal.js';
import { describeAnswers } from '../domain/refusedNotifications.js';
import type { CaughtRequest, WebhookCatcher } from '../testing/webhookCatcher.js';
import type { WebhookAnswer } from '../webhooks/transport.js';

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
  type?: MessageType;
  /** The recipient the payload is about (for a reply: the number that replied). */
  recipient?: string;
  /** The text, or a pattern it matches (for a reply: the reply text). */
  text?: string | RegExp;
  client_reference?: string;
}

/** What a matcher reads from the emulator: a message with its history, the request journal (at once in process, or a promise over HTTP). */
export interface MatcherEmulator {
  readonly messages: { get(id: string): MessageView | Promise<MessageView> };
  readonly requests: {
    find(filter?: JournalFilter & { limit?: number }): Page<JournalEntry> | Promise<Page<JournalEntry>>;
  };
}

/** What the account-level matchers read: the test's messages (at once in process, or a promise over HTTP), its catcher and its emulator. */
export interface SmsSubject {
  readonly account: { readonly apiKey: string };
  /** The account's messages, newest first. */
  messages(): MessageView[] | Promise<MessageView[]>;
  readonly catcher: WebhookCatcher;
  readonly emulator: MatcherEmulator;
  /** The app's answer to a post the catcher handed it (`sms.forwardTo`); none for a post it answered itself. */
  appAnswer?(request: CaughtRequest): WebhookAnswer | undefined;
}

/** Which API requests `toHaveMadeRequest` counts, from the request journal; every field given must match. */
export interface RequestExpectation {
  /** `GET`, `POST`, ... (any case). */
  method?: string;
  /** The path exactly (with or without the `/sandbox` prefix), or a pattern it matches: `'/v1/messages'`, `/^\/v1\/messages\/\w+$/`. */
  path?: string | RegExp;
  /** The account that made them: the test's own for `expect(sms)`; any, or the one named, for `expect(emulator)`. */
  account?: string;
  environment?: Environment;
  /** The HTTP status answered. */
  status?: number;
}

/** A message as `toHaveStatus` reads it: an API message object, or a control view with its history. */
export interface StatusSubject {
  id: string;
  status: string;
  history?: readonly ChangeView[];
}

export interface SmsMatchers<R = unknown> {
  /** The test's account sent a message matching `expected` (`to`, `text`, `client_reference`, `status`). Awaitable in both modes; a forgotten `await` over HTTP still fails the test itself. */
  toHaveSent(expected: SentExpectation): R;
  /** The test's webhook catcher received a payload matching `expected` (`id`, `status`, `type`, `recipient`, `text`). */
  toHaveReceivedWebhook(expected: WebhookExpectation): R;
  /** The message object has this status; a failure shows the message's history and upcoming changes, with times (await it over HTTP). */
  toHaveStatus(status: ShownStatus): R;
  /**
   * The account made requests matching `expected` (method, path, status...), `times` times exactly, or at least once
   * without `times`; read from the emulator's request journal, like nock's `scope.done()`. A failure lists the
   * requests it did make. Awaitable in both modes; a forgotten `await` over HTTP still fails the test itself.
   * @example await expect(sms).toHaveMadeRequest({ method: 'POST', path: '/v1/messages' }, 2);
   */
  toHaveMadeRequest(expected: RequestExpectation, times?: number): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any -- vitest's own declaration shape
  interface Matchers<T = any> extends SmsMatchers<T> {}
}

interface Result {
  pass: boolean;
  message: () => string;
}

/** What vitest gives a matcher as `this`: whether it is negated, and the test it runs in. */
interface MatcherThis {
  isNot: boolean;
  task?: object;
}

/** The fixture's context of each running test, so a matcher given only a message can still read its history. */
const subjects = new WeakMap<object, SmsSubject>();

/** Called by the fixture: `toHaveStatus` in `test` then reads message histories from `subject`'s emulator. */
export function registerSubject(test: object, subject: SmsSubject): void {
  subjects.set(test, subject);
}

/** A test as vitest's runner keeps it: the assertions it awaits once the test function has returned. */
interface RunningTest {
  promises?: Promise<unknown>[];
}

/**
 * An answer that comes later (over HTTP), shaped so a forgotten `await` fails the test itself. vitest checks a matcher's
 * result with `.then`; that check is put in the test's `promises`, which the runner awaits when the test function has
 * returned (as it does for its own `resolves` and `rejects`), and it never rejects unhandled. Awaiting what `expect`
 * answers takes it out of that list again, so an awaited assertion behaves exactly as any other.
 */
function later<T>(task: object | undefined, answer: Promise<T>): T | Promise<T> {
  if (task === undefined) return answer;
  const test = task as RunningTest;
  const checkedLater = {
    then(onFulfilled?: (value: T) => unknown, onRejected?: (reason: unknown) => unknown) {
      const checked = answer.then(onFulfilled, onRejected);
      checked.catch(() => {}); // reported by the runner (or the test's own await), never as an unhandled rejection
      (test.promises ??= []).push(checked);
      const awaited = (): Promise<unknown> => {
        const index = test.promises?.indexOf(checked) ?? -1;
        if (index >= 0) test.promises?.splice(index, 1);
        return checked;
      };
      return {
        then: (fulfilled?: (value: unknown) => unknown, rejected?: (reason: unknown) => unknown) =>
          awaited().then(fulfilled, rejected),
        catch: (rejected?: (reason: unknown) => unknown) => awaited().catch(rejected),
        finally: (settled?: () => void) => awaited().finally(settled),
      };
    },
  };
  return checkedLater as unknown as Promise<T>;
}

/** A value, or a promise of it (over HTTP), handed to `next` the same way; a later one is watched as `later` says. */
const then = <T, R>(task: object | undefined, value: T | Promise<T>, next: (value: T) => R): R | Promise<R> =>
  value instanceof Promise ? later(task, value.then(next)) : next(value);

const textMatches = (actual: string, expected: string | RegExp | undefined): boolean =>
  expected === undefined || (typeof expected === 'string' ? actual === expected : expected.test(actual));

const describe = (expected: object): string =>
  Object.entries(expected)
    .map(([name, value]) => `${name} ${value instanceof RegExp ? String(value) : JSON.stringify(value)}`)
    .join(', ');

const changes = (list: readonly ChangeView[]): string =>
  list.map((change) => `${change.status} at ${change.at}`).join(', ') || 'none';

/** The history (and, from the emulator's view, each leg's upcoming changes) a `toHaveStatus` failure shows. */
function historyOf(message: StatusSubject, view: MessageView | undefined): string {
  if (view === undefined) return message.history === undefined ? '' : `\nhistory: ${changes(message.history)}`;
  const now = view.status === message.status ? '' : `\nin the emulator it is now "${view.status}"`;
  const legs = view.legs
    .map((leg) => `\n  leg ${leg.recipient}: ${changes(leg.history)}; upcoming: ${changes(leg.upcoming)}`)
    .join('');
  return `${now}\nhistory: ${changes(view.history)}${legs}`;
}

/** The emulator's view of the message, when the test runs in the fixture and the emulator knows it. */
function emulatorView(
  task: object | undefined,
  id: string,
): MessageView | undefined | Promise<MessageView | undefined> {
  const subject = task === undefined ? undefined : subjects.get(task);
  if (subject === undefined) return undefined;
  try {
    const view = subject.emulator.messages.get(id);
    return view instanceof Promise ? view.catch(() => undefined) : view;
  } catch {
    return undefined; // an app's own record of a message the emulator never had (or deleted): the status alone is shown
  }
}

const requestLine = (entry: JournalEntry): string =>
  `\n  - ${entry.method} ${entry.path}${entry.query === '' ? '' : `?${entry.query}`} ${entry.status}${entry.code === null ? '' : ` ${entry.code}`} at ${entry.time}`;

const pathMatches = (path: string, expected: string | RegExp | undefined): boolean =>
  expected === undefined ||
  (typeof expected === 'string'
    ? path === expected || path.replace(/^\/sandbox(?=\/)/, '') === expected
    : expected.test(path));

const timesText = (count: number): string => (count === 1 ? 'once' : `${count} times`);

function requestResult(
  who: string,
  expected: RequestExpectation,
  times: number | undefined,
  made: JournalEntry[],
  isNot: boolean,
): Result {
  const { account: _account, ...shown } = expected;
  const method = expected.method?.toUpperCase();
  const matching = made.filter(
    (entry) =>
      (method === undefined || entry.method === method) &&
      (expected.environment === undefined || entry.environment === expected.environment) &&
      (expected.status === undefined || entry.status === expected.status) &&
      pathMatches(entry.path, expected.path),
  );
  const wanted = times === undefined ? 'at least once' : timesText(times);
  // The journal answers newest first; the failure lists them in the order they were made.
  const listed = [...made].reverse().slice(-20);
  return {
    pass: times === undefined ? matching.length > 0 : matching.length === times,
    message: () =>
      `expected ${who} ${isNot ? 'not ' : ''}to have made a request with ${describe(shown) || 'anything'} ${wanted}; it made ${
        matching.length === 0 ? 'none' : timesText(matching.length)
      }. Its requests${made.length > listed.length ? ` (the last ${listed.length} of ${made.length})` : ''}:${
        made.length === 0 ? ' none' : listed.map(requestLine).join('')
      }`,
  };
}

function sentResult(subject: SmsSubject, expected: SentExpectation, messages: MessageView[], isNot: boolean): Result {
  const matches = messages.filter(
    (message) =>
      (expected.to === undefined || message.recipient.includes(expected.to)) &&
      textMatches(message.message, expected.text) &&
      (expected.client_reference === undefined || message.client_reference === expected.client_reference) &&
      (expected.status === undefined || message.status === expected.status),
  );
  const sent = messages.map(
    (message) =>
      `\n  - to ${message.recipient.join(', ')}: ${JSON.stringify(message.message)} (${message.status}, id ${message.id})`,
  );
  const what = `account ${subject.account.apiKey} ${isNot ? 'not ' : ''}to have sent a message with ${describe(expected)}`;
  return {
    pass: matches.length > 0,
    message: () => `expected ${what}; it sent ${sent.length === 0 ? 'nothing' : `${sent.length}:${sent.join('')}`}`,
  };
}

export const smsMatchers = {
  toHaveSent(this: MatcherThis, subject: SmsSubject, expected: SentExpectation): Result | Promise<Result> {
    return then(this.task, subject.messages(), (list) => sentResult(subject, expected, list, this.isNot));
  },

  toHaveReceivedWebhook(this: MatcherThis, subject: SmsSubject | WebhookCatcher, expected: WebhookExpectation): Result {
    const catcher = 'catcher' in subject ? subject.catcher : subject;
    const bodies = catcher.received.map((request) => request.body as Record<string, unknown>);
    const matches = catcher.received.filter(
      ({ body }: { body: Record<string, unknown> }) =>
        typeof body === 'object' &&
        body !== null &&
        (expected.id === undefined || body.id === expected.id) &&
        (expected.status === undefined || body.status === expected.status) &&
        (expected.type === undefined || body.type === expected.type) &&
        (expected.recipient === undefined ||
          (Array.isArray(body.recipient) && body.recipient.includes(expected.recipient))) &&
        textMatches(String(body.message), expected.text) &&
        (expected.client_reference === undefined || body.client_reference === expected.client_reference),
    );
    const seen = bodies.map((body) =>
      typeof body === 'object' && body !== null
        ? `\n  - ${String(body.type)} ${String(body.id)} ${String(body.status)} to ${String(body.recipient)}: ${JSON.stringify(body.message)}`
        : `\n  - ${JSON.stringify(body)}`,
    );
    // Handed to the app, a payload counts once the app took it: one it refused at every post never reached it.
    const appAnswers = 'appAnswer' in subject && subject.appAnswer ? matches.map(subject.appAnswer) : [];
    const refused =
      matches.length > 0 &&
      appAnswers.length === matches.length &&
      appAnswers.every((answer) => answer !== undefined && (answer.status < 200 || answer.status > 299));
    if (refused) {
      const answers = describeAnswers(appAnswers.map((answer) => ({ status: answer?.status, answer: answer?.body })));
      return {
        pass: false,
        message: () =>
          `expected the webhook catcher ${this.isNot ? 'not ' : ''}to have received a payload with ${describe(expected)} that the app took; the app refused each of the ${matches.length} posts: ${answers}`,
      };
    }
    return {
      pass: matches.length > 0,
      message: () =>
        `expected the webhook catcher ${this.isNot ? 'not ' : ''}to have received a payload with ${describe(expected)}; it received ${
          seen.length === 0 ? 'nothing' : `${seen.length}:${seen.join('')}`
        }`,
    };
  },

  toHaveStatus(this: MatcherThis, message: StatusSubject, status: string): Result | Promise<Result> {
    const pass = message.status === status;
    const result = (view: MessageView | undefined): Result => ({
      pass,
      message: () =>
        `expected message ${message.id} ${this.isNot ? 'not ' : ''}to have status "${status}"; it is "${message.status}"${historyOf(message, view)}`,
    });
    // The emulator is asked only when the assertion fails, so a passing one stays synchronous in both modes.
    if (pass !== Boolean(this.isNot)) return result(undefined);
    return then(this.task, emulatorView(this.task, message.id), result);
  },

  toHaveMadeRequest(
    this: MatcherThis,
    subject: SmsSubject | MatcherEmulator,
    expected: RequestExpectation,
    times?: number,
  ): Result | Promise<Result> {
    if (times !== undefined && (!Number.isInteger(times) || times < 0))
      throw new TypeError(`sms-emulator: toHaveMadeRequest: times must be a whole number from 0, not ${times}.`);
    const own = 'account' in subject && 'catcher' in subject;
    const account = own ? subject.account.apiKey : expected.account;
    const emulator = own ? subject.emulator : subject;
    // Every request of the account is read, so that a failure can list what it did make.
    const filter: JournalFilter & { limit: number } = { limit: 1000 };
    if (account !== undefined) filter.account = account;
    const who = account === undefined ? 'the emulator' : `account ${account}`;
    return then(this.task, emulator.requests.find(filter), (page) =>
      requestResult(who, expected, times, page.items, this.isNot),
    );
  },
};
