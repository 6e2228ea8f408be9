/**
 * checkReceiver: posts the battery of receiverChecks to a webhook receiver, as the emulator posts (same payloads,
 * headers and tries), and scores what is observable from outside: 200 to every valid delivery, never a 5xx for an id
 * the app never sent, an answer within the timeout, the burst survived. Needs no emulator running.
 */

import { resolveOptions } from '../options.js';
import { parseDuration } from '../domain/time.js';
import { type Expectation, type ReceiverCheckName, receiverCheckNames, receiverChecks } from './receiverChecks.js';
import { WebhookTransport } from './transport.js';
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
}

/** One post and what came back. */
export interface CheckAnswer {
  about: string;
  /** The HTTP status; absent when there was none. */
  status?: number;
  /** Why there was no answer (refused, timeout, a certificate not trusted, ...). */
  error?: string;
  /** Set when the answer's body was longer than this and was not read further (its status still counts). */
  cutAfterBytes?: number;
  ms: number;
}

export interface CheckResult {
  name: ReceiverCheckName;
  sends: string;
  passed: boolean;
  /** Why it passed or failed, in a sentence. */
  reason: string;
  /** What a real gateway does next, following the spec's retry rule. */
  gatewayNext: string;
  answers: CheckAnswer[];
}

export interface ReceiverReport {
  url: string;
  passed: boolean;
  timeoutMs: number;
  checks: CheckResult[];
  /** Set when nothing usable answered at all (the remaining checks were not run). */
  unreachable?: string;
}

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

/** The URL as reports show it: a password in it is masked, as the table, the JSON and the page may be shared. */
function shownUrl(url: string): string {
  const target = new URL(url);
  if (target.password === '') return url;
  target.password = '***';
  return target.href;
}

function targetOf(url: string): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new RangeError(`"${url}" is not a URL; give the receiver's, such as http://127.0.0.1:4000/webhooks/sms`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new RangeError(`${url}: a webhook URL is http:// or https://`);
  return target;
}

/** What the failed posts say, with a hint where the cause is common. */
function explained(error: string, timeoutMs: number): string {
  if (/certificate|self[- ]signed|UNABLE_TO_VERIFY|CERT_/i.test(error))
    return `${error}: the receiver's TLS certificate is not trusted; to trust it, start with NODE_EXTRA_CA_CERTS=<its certificate or CA, PEM>`;
  if (/^timeout/.test(error)) return `no answer within ${timeoutMs} ms (--timeout)`;
  return error;
}

export async function checkReceiver(url: string, options: CheckReceiverOptions = {}): Promise<ReceiverReport> {
  targetOf(url);
  const names = selectedChecks(options.only, options.skip);
  const timeoutMs =
    typeof options.timeout === 'number' ? options.timeout : (parseDuration(options.timeout ?? '5s') ?? Number.NaN);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000)
    throw new RangeError(`timeout "${options.timeout}" is not a duration between 1ms and 10m, such as 5s or 500ms`);
  const at = options.at === undefined ? Date.now() : new Date(options.at).getTime();
  if (Number.isNaN(at)) throw new RangeError(`at "${String(options.at)}" is not an instant`);
  const checks = receiverChecks(options.seed ?? 'check-receiver', at).filter((check) => names.includes(check.name));
  const transport = new WebhookTransport(timeoutMs, maxAnswerBytes);
  const next = retryRule();
  const report: ReceiverReport = { url: shownUrl(url), passed: true, timeoutMs, checks: [] };
  const post = async (eventId: string, payload: unknown, about: string): Promise<CheckAnswer> => {
    const body = JSON.stringify(payload);
    const started = performance.now();
    const result = await transport.post(url, body, tryHeaders(webhookHeaders(eventId, body, options.signingSecret), 1));
    const ms = Math.round(performance.now() - started);
    if ('error' in result) return { about, error: explained(result.error, timeoutMs), ms };
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
      report.checks.push(result);
      if (report.checks.length === 1 && answers.every((answer) => answer.status === undefined))
        report.unreachable = `nothing answered at ${report.url}: ${answers[0]?.error ?? 'no answer'}`;
    }
  } finally {
    transport.close();
  }
  report.passed = report.checks.every((check) => check.passed);
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
