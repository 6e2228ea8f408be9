/**
 * checkReceiver: posts the battery of receiverChecks to a webhook receiver, as the emulator posts (same payloads,
 * headers and tries), and scores what is observable from outside: 200 to every valid delivery, never a 5xx for an id
 * the app never sent, an answer within the timeout, the burst survived. With a state hook it also reads what the
 * receiver holds after each sequence; without one, the report says what answers alone cannot show. Needs no emulator.
 */

import { z } from 'zod';
import { resolveOptions } from '../options.js';
import { parseDuration } from '../domain/time.js';
import { maskUrlCredentials, maskUrlsInText } from '../domain/credentials.js';
import {
  type CheckDelivery,
  type DeliveryState,
  type Expectation,
  type ReceiverCheckName,
  receiverCheckNames,
  receiverChecks,
} from './receiverChecks.js';
import { type HeldState, StateReader, checkStateTemplate, heldStateSchema } from './receiverState.js';
import type { OwnAddresses } from '../domain/ownAddress.js';
import { WebhookTransport, isHttp } from './transport.js';
import { tryHeaders, webhookHeaders } from './webhookHeaders.js';

export interface CheckReceiverOptions {
  /** How long a receiver may take to answer one post, as the emulator's webhookTimeout (default `5s`). */
  timeout?: string | number;
  /** Only these checks (names of receiverCheckNames). */
  only?: readonly string[];
  /** All checks but these. */
  skip?: readonly string[];
  /** Ids and texts repeat for a seed (default `check-receiver`). */
  seed?: string;
  /** The instant the payloads' times are built around (default now): with the seed, the same deliveries byte for byte. */
  at?: string | number | Date;
  /** Signs each post with `Webhook-Signature`, as the emulator's webhookSigningSecret does. */
  signingSecret?: string;
  /**
   * The receiver's state hook, a URL template naming the message by `{id}` (or `{clientReference}`), such as
   * `http://127.0.0.1:4000/sms/{id}`: read after each delivery sequence, answering `{"status", "notifications"?}`.
   */
  state?: string;
}

/** What the state hook was asked about one message after a sequence, and what it answered. */
export const stateReadingSchema = z.strictObject({
  /** The message id. */
  message: z.string(),
  /** What the receiver should hold: the newest status it answered 200 to, and how many distinct notifications that was. */
  expected: z.strictObject({ status: z.string(), notifications: z.int() }),
  /** What the hook answered. */
  held: heldStateSchema.optional(),
  /** Why there was no usable answer. */
  error: z.string().optional(),
  passed: z.boolean(),
});
export type StateReading = z.output<typeof stateReadingSchema>;

/** One post and what came back. */
export const checkAnswerSchema = z.strictObject({
  about: z.string(),
  /** The HTTP status; absent when there was none. */
  status: z.int().optional(),
  /** Why there was no answer (refused, timeout, a certificate not trusted, ...). */
  error: z.string().optional(),
  /** Set when the answer's body was longer than this and was not read further (its status still counts). */
  cutAfterBytes: z.int().optional(),
  ms: z.int(),
});
export type CheckAnswer = z.output<typeof checkAnswerSchema>;

/** One check's result: what it sent, whether the receiver passed, why, and what each post got back. */
export const checkResultSchema = z.strictObject({
  name: z.enum(receiverCheckNames),
  sends: z.string(),
  passed: z.boolean(),
  reason: z.string().describe('Why it passed or failed, in a sentence naming the post or sequence.'),
  gatewayNext: z.string().describe("What a real gateway does next, by the spec's retry rule."),
  answers: z.array(checkAnswerSchema),
  state: z
    .array(stateReadingSchema)
    .describe("With a state hook: what it answered after the check's sequences, up to the first that failed.")
    .optional(),
});
export type CheckResult = z.output<typeof checkResultSchema>;

/** What check-receiver found: each check's result, what it could not see, and whether anything answered at all. */
export const receiverReportSchema = z.strictObject({
  url: z.string().describe("The receiver's URL (a password in it masked)."),
  passed: z.boolean(),
  timeoutMs: z.int(),
  state: z.string().describe("The state hook's template, when one was given (a password in it masked).").optional(),
  checks: z.array(checkResultSchema),
  unseen: z
    .array(z.string())
    .describe(
      'What the run could not see (without a state hook: a duplicate processed twice, an older status written over a newer one), each with where to prove it instead.',
    ),
  unreachable: z.string().describe('Set when nothing answered the first check (the rest were not run).').optional(),
});
export type ReceiverReport = z.output<typeof receiverReportSchema>;

/** The spec's retry rule with the emulator's defaults: what happens to a post that is not answered 200. */
function retryRule(): string {
  const { webhookRetries } = resolveOptions();
  return `re-sent at once, ${webhookRetries} more times, then dropped and logged as failed`;
}

/** Which checks run: all, `only` these, or all but `skip`; an unknown name is refused, listing the names. */
export function selectedChecks(only?: readonly string[], skip?: readonly string[]): ReceiverCheckName[] {
  if (only !== undefined && only.length === 0)
    throw new RangeError(`only names no check; the checks are ${receiverCheckNames.join(', ')}`);
  for (const name of [...(only ?? []), ...(skip ?? [])])
    if (!(receiverCheckNames as readonly string[]).includes(name))
      throw new RangeError(`"${name}" is not a check; the checks are ${receiverCheckNames.join(', ')}`);
  return receiverCheckNames.filter(
    (name) => (only === undefined || only.includes(name)) && !(skip ?? []).includes(name),
  );
}

/** How much of an answer is read: a gateway wants the status, and a receiver that answers megabytes must not cost them. */
const maxAnswerBytes = 64 * 1024;

function targetOf(url: string): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new RangeError(
      `"${maskUrlCredentials(url)}" is not a URL; give the receiver's, such as http://127.0.0.1:4000/webhooks/sms`,
    );
  }
  if (!isHttp(target)) throw new RangeError(`${maskUrlCredentials(url)}: a webhook URL is http:// or https://`);
  return target;
}

/** What the failed posts say, with a hint where the cause is common. */
function explained(error: string, timeoutMs: number): string {
  if (/certificate|self[- ]signed|UNABLE_TO_VERIFY|CERT_/i.test(error))
    return `${error}: the receiver's TLS certificate is not trusted; to trust it, start with NODE_EXTRA_CA_CERTS=<its certificate or CA, PEM>`;
  if (/^timeout/.test(error)) return `no answer within ${timeoutMs} ms (--timeout)`;
  return error;
}

/** Where a team proves, in its own tests, what a black-box check cannot see. */
const behavioursDoc = 'docs/webhooks.md#delivery-behaviours';
const giveHook = 'give a state hook (--state, or state in checkReceiver())';

/** What a run could not see, from which checks ran and whether the hook answered counts. */
function unseenBy(names: readonly ReceiverCheckName[], hook: boolean, counted: boolean): string[] {
  const unseen: string[] = [];
  if (names.includes('duplicate') && (!hook || !counted))
    unseen.push(
      `whether a re-sent notification (same event id) was processed twice: a receiver answers 200 either way; ${hook ? 'have the state hook answer "notifications"' : giveHook}, or prove it in your own tests with the duplicate delivery behaviour (${behavioursDoc})`,
    );
  if (hook) return unseen;
  if (names.includes('out-of-order'))
    unseen.push(
      `whether an older status that arrived late (submitted after delivered) overwrote the newer one; ${giveHook}, or prove it in your own tests with the reorder delivery behaviour (${behavioursDoc})`,
    );
  if (names.some((name) => !['reply', 'stop-reply', 'orphan', 'duplicate', 'out-of-order'].includes(name)))
    unseen.push(
      `whether each notification answered 200 was recorded at all; ${giveHook}, or assert on your app's records after the emulator's deliveries in your own tests (${behavioursDoc})`,
    );
  return unseen;
}

/** What the receiver should hold for one message after a sequence: built from the posts it answered 200. */
interface ExpectedState {
  subject: DeliveryState;
  status: string;
  notifications: number;
  /** The sequence as posted, for the report: `submitted, delivered, delivered again (same event id)`. */
  sequence: string;
}

/**
 * Per message, in the order first posted: the newest status among the posts answered 200 (a later step wins, whatever
 * order they came in) and how many distinct notifications those were (a re-sent one is the same notification).
 */
export function expectedStates(deliveries: readonly CheckDelivery[], answers: readonly CheckAnswer[]): ExpectedState[] {
  const byMessage = new Map<
    string,
    { subject: DeliveryState; posted: Set<string>; accepted: Set<string>; newest?: DeliveryState; steps: string[] }
  >();
  for (const [index, delivery] of deliveries.entries()) {
    const { state } = delivery;
    if (state === undefined) continue;
    let entry = byMessage.get(state.message);
    if (entry === undefined) {
      entry = { subject: state, posted: new Set(), accepted: new Set(), steps: [] };
      byMessage.set(state.message, entry);
    }
    const status = answers[index]?.status;
    const again = entry.posted.has(delivery.eventId) ? ' again (same event id)' : '';
    entry.posted.add(delivery.eventId);
    entry.steps.push(`${state.status}${again}${status === 200 ? '' : ` (answered ${status ?? 'nothing'})`}`);
    if (status !== 200) continue;
    entry.accepted.add(delivery.eventId);
    if (entry.newest === undefined || state.step > entry.newest.step) entry.newest = state;
  }
  return [...byMessage.values()].flatMap(({ subject, accepted, newest, steps }) =>
    newest === undefined
      ? []
      : [{ subject, status: newest.status, notifications: accepted.size, sequence: steps.join(', ') }],
  );
}

/** Why a reading does not match, in words naming the sequence; undefined when it matches. */
function stateProblem(
  expected: ExpectedState,
  reading: StateReading,
  deliveries: readonly CheckDelivery[],
): string | undefined {
  const after = `after ${expected.sequence} of ${expected.subject.message}`;
  if (reading.error !== undefined)
    return `${after}, the state hook ${reading.error}${reading.error.startsWith('answered 404') ? ' (it answered 200 to them)' : ''}`;
  const held = reading.held as HeldState;
  if (held.status !== expected.status) {
    const steps = deliveries.filter((delivery) => delivery.state?.message === expected.subject.message);
    const heldAt = steps.findIndex((delivery) => delivery.state?.status === held.status);
    const newestAt = steps.findIndex((delivery) => delivery.state?.status === expected.status);
    const why =
      heldAt === -1
        ? 'a status it was never sent'
        : heldAt > newestAt
          ? 'an older status that arrived later overwrote the newer one (order by the status, not by arrival)'
          : 'the newest status it answered 200 to was not recorded';
    return `${after}, the receiver holds status "${held.status}", expected "${expected.status}": ${why}`;
  }
  if (held.notifications !== undefined && held.notifications !== expected.notifications) {
    const why =
      held.notifications > expected.notifications
        ? expected.sequence.includes('again')
          ? 'it processed the re-sent notification a second time; a gateway re-sends whenever an answer is lost, so de-duplicate on X-Emulator-Event-Id'
          : 'it processed a notification more than once'
        : 'it dropped a notification it answered 200 to (a 200 tells the gateway it was received)';
    return `${after}, the receiver counts ${held.notifications} notifications, expected ${expected.notifications}: ${why}`;
  }
  return undefined;
}

/**
 * Runs the battery against the receiver at `url`. `own`, when the emulator runs it (the control API's receiver check), is
 * the emulator's own addresses: a post or state read whose connection reaches one is not made (ownGuard.ts).
 */
export async function checkReceiver(
  url: string,
  options: CheckReceiverOptions = {},
  own?: OwnAddresses,
): Promise<ReceiverReport> {
  targetOf(url);
  if (options.state !== undefined) checkStateTemplate(options.state);
  const names = selectedChecks(options.only, options.skip);
  const timeoutMs =
    typeof options.timeout === 'number' ? options.timeout : (parseDuration(options.timeout ?? '5s') ?? Number.NaN);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000)
    throw new RangeError(`timeout "${options.timeout}" is not a duration between 1ms and 10m, such as 5s or 500ms`);
  const at = options.at === undefined ? Date.now() : new Date(options.at).getTime();
  if (Number.isNaN(at)) throw new RangeError(`at "${String(options.at)}" is not an instant`);
  const checks = receiverChecks(options.seed ?? 'check-receiver', at).filter((check) => names.includes(check.name));
  const transport = new WebhookTransport(timeoutMs, own, maxAnswerBytes);
  const reader = options.state === undefined ? undefined : new StateReader(options.state, timeoutMs, own);
  let counted = true;
  const next = retryRule();
  const report: ReceiverReport = {
    url: maskUrlCredentials(url),
    passed: true,
    timeoutMs,
    ...(options.state === undefined ? {} : { state: maskUrlCredentials(options.state) }),
    checks: [],
    unseen: [],
  };
  const post = async (eventId: string, payload: unknown, about: string): Promise<CheckAnswer> => {
    const body = JSON.stringify(payload);
    const started = performance.now();
    const result = await transport.post(url, body, tryHeaders(webhookHeaders(eventId, body, options.signingSecret), 1));
    const ms = Math.round(performance.now() - started);
    if ('error' in result) return { about, error: maskUrlsInText(explained(result.error, timeoutMs)), ms };
    const { status, cutAfterBytes } = result;
    return cutAfterBytes === undefined ? { about, status, ms } : { about, status, cutAfterBytes, ms };
  };
  try {
    for (const check of checks) {
      if (report.unreachable !== undefined) {
        report.checks.push({
          name: check.name,
          sends: check.sends,
          passed: false,
          reason: 'not run: nothing answered the first check',
          gatewayNext: 'not known: not run',
          answers: [],
        });
        continue;
      }
      const answers: CheckAnswer[] = [];
      const expected = check.deliveries.map((delivery) => delivery.expects ?? check.expects);
      if (check.together)
        answers.push(...(await Promise.all(check.deliveries.map((d) => post(d.eventId, d.payload, d.about)))));
      else
        for (const [index, delivery] of check.deliveries.entries()) {
          const answer = await post(delivery.eventId, delivery.payload, delivery.about);
          answers.push(answer);
          // A check stops at its first failed post: a hanging receiver costs one timeout per check, not one per post.
          if (!acceptable(answer, expected[index] as Expectation)) break;
        }
      const result = scored(check.name, check.sends, expected, answers, check.deliveries.length, next);
      if (reader !== undefined && result.passed) {
        const states = expectedStates(check.deliveries, answers);
        if (states.length > 0) result.state = [];
        for (const state of states) {
          const answer = await reader.read({
            id: state.subject.message,
            clientReference: state.subject.clientReference,
          });
          const reading: StateReading = {
            message: state.subject.message,
            expected: { status: state.status, notifications: state.notifications },
            ...('held' in answer ? { held: answer.held } : { error: answer.error }),
            passed: true,
          };
          if ('held' in answer && answer.held.notifications === undefined) counted = false;
          const problem = stateProblem(state, reading, check.deliveries);
          (result.state as StateReading[]).push(reading);
          if (problem === undefined) continue;
          reading.passed = false;
          result.passed = false;
          result.reason = problem;
          result.gatewayNext = 'nothing more: it had its answers, so the fault stays unseen by the gateway';
          // A check stops at its first failed reading, as it does at its first failed post.
          break;
        }
        if (result.passed && states.length > 0)
          result.reason += `; the state hook holds what was answered 200 (${states.length === 1 ? 'the message' : `${states.length} messages`})`;
      }
      report.checks.push(result);
      if (report.checks.length === 1 && answers.every((answer) => answer.status === undefined))
        report.unreachable = `nothing answered at ${report.url}: ${answers[0]?.error ?? 'no answer'}`;
    }
  } finally {
    transport.close();
    await reader?.close();
  }
  report.passed = report.checks.every((check) => check.passed);
  report.unseen = unseenBy(report.unreachable === undefined ? names : [], reader !== undefined, counted);
  return report;
}

function acceptable(answer: CheckAnswer, expects: Expectation): boolean {
  if (answer.status === undefined) return false;
  return expects === 'ok' ? answer.status === 200 : answer.status < 500;
}

function scored(
  name: ReceiverCheckName,
  sends: string,
  expected: readonly Expectation[],
  answers: CheckAnswer[],
  planned: number,
  next: string,
): CheckResult {
  const badIndex = answers.findIndex((answer, index) => !acceptable(answer, expected[index] as Expectation));
  const bad = answers[badIndex];
  const slowest = Math.max(0, ...answers.map((answer) => answer.ms));
  if (bad === undefined && answers.length === planned) {
    const kinds = [...new Set(answers.map((answer) => answer.status))].join(', ');
    const note = answers.some((answer) => answer.status !== 200)
      ? `; a gateway still re-sends anything but 200: ${next}`
      : '';
    return {
      name,
      sends,
      passed: true,
      reason: `answered ${kinds} to all ${answers.length} (slowest ${slowest} ms)${note}`,
      gatewayNext: answers.every((answer) => answer.status === 200) ? 'nothing: received' : next,
      answers,
    };
  }
  const failed = bad as CheckAnswer;
  const what =
    failed.status === undefined
      ? failed.error
      : failed.status >= 300 && failed.status < 400
        ? `answered ${failed.status}: a redirect, which a gateway never follows (it posts to the URL configured)`
        : `answered ${failed.status}`;
  const rule =
    expected[badIndex] === 'ok'
      ? 'a valid delivery must be answered 200'
      : 'a duplicate, an unknown id or a state out of order must not be a server error';
  return { name, sends, passed: false, reason: `${what} to ${failed.about} (${rule})`, gatewayNext: next, answers };
}
