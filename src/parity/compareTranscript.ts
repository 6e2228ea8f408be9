/**
 * Compares a transcript with its replay, line by line: status, error code and which error won, fields present and
 * their types, values after the rules' normalisers, credits, and each message's webhooks as a partial order (each
 * leg's notifications in order, duplicates counted). Every finding names the transcript line and the field.
 */

import { ApiError } from '../domain/errors.js';
import { legStatuses } from '../domain/message.js';
import { scheduleText, validateClientReference, validateMessageText, validateRecipients } from '../domain/fields.js';
import { timeOffsetOf } from './bindings.js';
import { creditCauses } from './creditCauses.js';
import { type Finding, type RawFinding, groupFindings, kindOfValue } from './groupFindings.js';
import type { FindingKind, ParityRules } from './parityRules.js';
import type { Replayed } from './replay.js';
import type { AnswerLine, RequestLine, Transcript, WebhookLine } from './transcript.js';

/** The field a leg's status is posted in: a changed word there is what the integration acts on. */
const notificationStatus = 'webhook.payload.status';

/** The money fields: a change in them is a change in what is charged. */
const moneyFields = new Set(['credit', 'balance']);

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The error code of an answer body, bare or wrapped. */
function errorCode(answer: Pick<AnswerLine, 'status' | 'body'> | undefined): string | undefined {
  if (answer === undefined || answer.status < 400) return undefined;
  const body = answer.body as { message?: unknown; error?: { message?: unknown } } | undefined;
  const code = body?.message ?? body?.error?.message;
  return typeof code === 'string' ? code : undefined;
}

/** The field each validation code is about, for naming it. */
function fieldOfCode(code: string): string {
  if (code.startsWith('RECIPIENT') || code === 'BATCH_LIMIT_EXCEEDED' || code === 'INVALID_RECIPIENT_ENTRY')
    return 'recipient';
  if (code.startsWith('MESSAGE_')) return 'message';
  if (code.startsWith('CLIENT_REFERENCE')) return 'client_reference';
  if (code.startsWith('SCHEDULE') || code === 'DATE_TIME_INVALID') return 'schedule';
  if (code.startsWith('SIGNATURE')) return 'Signature header';
  if (code === 'UNAUTHORIZED' || code === 'INVALID_API_KEY') return 'Authorization header';
  return 'answer.body.message';
}

function throwsCode(check: () => unknown, code: string): boolean {
  try {
    check();
    return false;
  } catch (error) {
    return error instanceof ApiError && error.code === code;
  }
}

/** True when `code`'s condition holds for the request by the emulator's own rules: then two errors applied. */
function applies(
  code: string,
  request: RequestLine,
  values: Record<string, string>,
  limits: Replayed['limits'],
): boolean {
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
    string,
    unknown
  >;
  const reference = body.client_reference;
  const resolved =
    typeof reference === 'string' && /^\{\{ref:\d+\}\}$/.test(reference) ? values[reference.slice(2, -2)] : reference;
  switch (fieldOfCode(code)) {
    case 'recipient':
      return throwsCode(() => validateRecipients(body.recipient, limits), code);
    case 'message':
      return throwsCode(() => validateMessageText(body.message, limits), code);
    case 'client_reference':
      return throwsCode(() => validateClientReference(resolved), code);
    case 'schedule':
      return code === 'SCHEDULE_EMPTY_PARAMETER' && throwsCode(() => scheduleText(body.schedule), code);
    case 'Signature header':
      return code === 'SIGNATURE_MISSING'
        ? request.headers.signature === undefined
        : request.headers.signature === '{{signature:invalid}}';
    case 'Authorization header':
      return code === 'UNAUTHORIZED' && request.headers.authorization === undefined;
    default:
      return false;
  }
}

/**
 * What the other side of a comparison is. A replay's is the emulator, and a kind is named for what the transcript's
 * provider does that the emulator does not. A recheck's is the provider now, and a kind is named for what it does now
 * that the transcript's did not: a field only the transcript has is one the provider removed.
 */
export type OtherSide = 'emulator' | 'provider';

const fromTheProvidersSide: Partial<Record<FindingKind, FindingKind>> = {
  'field-added': 'field-removed',
  'field-removed': 'field-added',
  'webhook-missing': 'webhook-extra',
  'webhook-extra': 'webhook-missing',
};

class Findings {
  readonly list: RawFinding[] = [];
  /** The request path of the answer being compared (none while webhooks are). */
  path: string | undefined;

  constructor(readonly other: OtherSide) {}

  add(kind: FindingKind, line: number, field: string, message: string, recorded?: unknown, emulator?: unknown): void {
    this.list.push({
      kind: this.other === 'provider' ? (fromTheProvidersSide[kind] ?? kind) : kind,
      line,
      field,
      message,
      ...(recorded === undefined ? {} : { recorded }),
      ...(emulator === undefined ? {} : { emulator }),
      ...(this.path === undefined ? {} : { path: this.path }),
    });
  }
}

/** Compares two values field by field under `path`; the transcript's value is `recorded`, the replay's `emulator`. */
function compareValues(
  findings: Findings,
  rules: ParityRules,
  line: number,
  path: string,
  recorded: unknown,
  emulator: unknown,
  key?: string,
): void {
  if (rules.ignore.some((pattern) => pattern.test(path))) return;
  const [a, b] = [normalised(rules, path, recorded), normalised(rules, path, emulator)];
  const [kindA, kindB] = [kindOfValue(a), kindOfValue(b)];
  if (kindA !== kindB) {
    if (kindA === 'null' || kindB === 'null')
      findings.add('value-changed', line, path, `the transcript has ${short(a)}, the emulator ${short(b)}`, a, b);
    else
      findings.add(
        'type-changed',
        line,
        path,
        `the transcript has a ${kindA} (${short(a)}), the emulator a ${kindB} (${short(b)})`,
        a,
        b,
      );
    return;
  }
  if (kindA === 'object') {
    const [objA, objB] = [a as Record<string, unknown>, b as Record<string, unknown>];
    for (const name of Object.keys(objA)) {
      const inner = `${path}.${name}`;
      if (!(name in objB)) {
        if (!rules.ignore.some((pattern) => pattern.test(inner)))
          findings.add(
            'field-added',
            line,
            inner,
            `the transcript has it (${short(objA[name])}), the emulator does not`,
            objA[name],
          );
      } else compareValues(findings, rules, line, inner, objA[name], objB[name], name);
    }
    for (const name of Object.keys(objB)) {
      const inner = `${path}.${name}`;
      if (!(name in objA) && !rules.ignore.some((pattern) => pattern.test(inner)))
        findings.add(
          'field-removed',
          line,
          inner,
          `the emulator has it (${short(objB[name])}), the transcript does not`,
          undefined,
          objB[name],
        );
    }
    return;
  }
  if (kindA === 'array') {
    const listA = a as unknown[];
    let listB = b as unknown[];
    const [idsA, idsB] = [idsOf(listA), idsOf(listB)];
    if (idsA !== undefined && idsB !== undefined && sameIdsReordered(idsA, idsB)) {
      // One finding for the order; the items are then compared by id, not reported changed at every position.
      findings.add(
        'value-changed',
        line,
        path,
        `the same items in another order: the transcript has ${idsA.join(', ')}, the emulator ${idsB.join(', ')}`,
        idsA,
        idsB,
      );
      listB = idsA.map((id) => listB[idsB.indexOf(id)]);
    }
    if (listA.length !== listB.length)
      findings.add(
        'value-changed',
        line,
        path,
        `the transcript has ${listA.length} items, the emulator ${listB.length}`,
        listA.length,
        listB.length,
      );
    for (let i = 0; i < Math.min(listA.length, listB.length); i++)
      compareValues(findings, rules, line, `${path}[${i}]`, listA[i], listB[i]);
    return;
  }
  if (a === b) return;
  if (typeof a === 'string' && typeof b === 'string') {
    const [offsetA, offsetB] = [timeOffsetOf(a), timeOffsetOf(b)];
    if (offsetA !== undefined && offsetB !== undefined && Math.abs(offsetA - offsetB) <= rules.timeToleranceMs) return;
  }
  const money = key !== undefined && moneyFields.has(key);
  findings.add(
    money ? 'credit-changed' : path === notificationStatus ? 'webhook-status-changed' : 'value-changed',
    line,
    path,
    `${money ? 'credits differ: ' : ''}the transcript has ${short(a)}, the emulator ${short(b)}`,
    a,
    b,
  );
}

/** The ids of a list whose items are all objects with distinct string ids (a message list), else undefined. */
function idsOf(list: readonly unknown[]): string[] | undefined {
  const ids = list.map((item) => (item as { id?: unknown } | null)?.id);
  const strings = ids.filter((id): id is string => typeof id === 'string');
  return strings.length === list.length && new Set(strings).size === strings.length ? strings : undefined;
}

function sameIdsReordered(idsA: readonly string[], idsB: readonly string[]): boolean {
  return (
    idsA.length === idsB.length && idsA.some((id, index) => idsB[index] !== id) && idsA.every((id) => idsB.includes(id))
  );
}

function normalised(rules: ParityRules, path: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  let text = value;
  for (const rule of rules.normalise) if (rule.field.test(path)) text = text.replace(rule.pattern, rule.replacement);
  return text;
}

/** The leg a notification is about, and its status: `{{id:1}} 27831234567` and `delivered`; a reply by who sent what. */
function legOf(payload: unknown): { leg: string; status: string } {
  const body = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const recipient = Array.isArray(body.recipient) ? body.recipient.join(',') : String(body.recipient ?? '');
  if (body.type === 'sms-reply')
    return { leg: `reply from ${recipient} ${JSON.stringify(body.message ?? '')}`, status: String(body.status ?? '') };
  // A payload without `status` (the provider renamed it) still has its leg's status word under the other name.
  const status =
    body.status ?? Object.values(body).find((value) => (legStatuses as readonly unknown[]).includes(value)) ?? '';
  return { leg: `${String(body.id ?? '?')} ${recipient}`, status: String(status) };
}

interface Notification {
  status: string;
  line: number;
  payload: unknown;
}

/** Each leg's notifications in order (a re-try of a post is the same notification, not a new one). */
function notificationsByLeg(posts: { post: WebhookLine; line: number }[]): Map<string, Notification[]> {
  const legs = new Map<string, Notification[]>();
  for (const { post, line } of posts) {
    if (post.attempt > 1) continue;
    const { leg, status } = legOf(post.payload);
    legs.set(leg, [...(legs.get(leg) ?? []), { status, line, payload: post.payload }]);
  }
  return legs;
}

function counts(list: readonly Notification[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const item of list) map.set(item.status, (map.get(item.status) ?? 0) + 1);
  return map;
}

/**
 * The emulator's notifications of a leg with each status word only it posts renamed to the one only the transcript
 * has, in order of first sight: a changed word (`delivered` posted as `DELIVERED`) is then a changed value of
 * `webhook.payload.status`, compared with the rest of the payload, not a notification missing and another extra.
 */
function sameStatusWords(mine: Notification[], theirs: Notification[]): Notification[] {
  const words = (list: Notification[], other: Notification[]): string[] => [
    ...new Set(list.map((item) => item.status).filter((status) => !other.some((item) => item.status === status))),
  ];
  const [onlyMine, onlyTheirs] = [words(mine, theirs), words(theirs, mine)];
  const renamed = new Map(onlyTheirs.slice(0, onlyMine.length).map((word, index) => [word, onlyMine[index] as string]));
  return theirs.map((item) => ({ ...item, status: renamed.get(item.status) ?? item.status }));
}

function compareWebhooks(findings: Findings, rules: ParityRules, transcript: Transcript, replayed: Replayed): void {
  const recordedPosts = transcript.events.flatMap((event, index) =>
    event.type === 'webhook' ? [{ post: event, line: transcript.lines[index] as number }] : [],
  );
  if (recordedPosts.length === 0) return;
  // Where an id was first seen: an extra notification names the line its message came from.
  const firstLine = new Map<string, number>();
  transcript.events.forEach((event, index) => {
    const text = JSON.stringify(event);
    for (const match of text.matchAll(/\{\{id:\d+\}\}/g))
      if (!firstLine.has(match[0])) firstLine.set(match[0], transcript.lines[index] as number);
  });
  const recorded = notificationsByLeg(recordedPosts);
  const emulator = notificationsByLeg(replayed.webhooks.map((post) => ({ post, line: 0 })));
  for (const leg of new Set([...recorded.keys(), ...emulator.keys()])) {
    const mine = recorded.get(leg) ?? [];
    const theirs = sameStatusWords(mine, emulator.get(leg) ?? []);
    const lineOf = mine[0]?.line ?? firstLine.get(leg.split(' ')[0] as string) ?? 1;
    const [countA, countB] = [counts(mine), counts(theirs)];
    for (const status of new Set([...countA.keys(), ...countB.keys()])) {
      const [a, b] = [countA.get(status) ?? 0, countB.get(status) ?? 0];
      const field = `webhook ${leg} ${status}`;
      const at = mine.find((item) => item.status === status)?.line ?? lineOf;
      // Named for what the provider did: a notification the transcript lacks is one it no longer sends (missing).
      if (a === 0)
        findings.add(
          'webhook-missing',
          at,
          field,
          `the emulator posts ${b} notification(s), the transcript has none`,
          a,
          b,
        );
      else if (b === 0)
        findings.add(
          'webhook-extra',
          at,
          field,
          `the transcript has ${a} notification(s), the emulator posts none`,
          a,
          b,
        );
      else if (a !== b)
        findings.add(
          'webhook-duplicated',
          at,
          field,
          `the transcript has ${a} notification(s), the emulator ${b}`,
          a,
          b,
        );
    }
    // The order of each leg's statuses (first sight of each, those both sides have): a partial order across legs.
    const order = (list: Notification[], keep: Map<string, number>): string[] => [
      ...new Set(list.map((item) => item.status).filter((status) => keep.has(status))),
    ];
    const [orderA, orderB] = [order(mine, countB), order(theirs, countA)];
    const moved = orderA.findIndex((status, index) => orderB[index] !== status);
    if (moved >= 0) {
      const at = mine.find((item) => item.status === orderA[moved])?.line ?? lineOf;
      findings.add(
        'webhook-reordered',
        at,
        `webhook ${leg}`,
        `the transcript's order is ${orderA.join(' → ')}, the emulator's ${orderB.join(' → ')}`,
        orderA,
        orderB,
      );
    }
    // The payload of each status both sides posted, first against first.
    for (const item of mine) {
      const match = theirs.find((other) => other.status === item.status);
      if (match !== undefined && mine.find((other) => other.status === item.status) === item)
        compareValues(findings, rules, item.line, 'webhook.payload', item.payload, match.payload);
    }
  }
}

/** Every finding of a replay against its transcript, in transcript line order. */
export function compareTranscript(
  transcript: Transcript,
  replayed: Replayed,
  rules: ParityRules,
  /** Findings of other checks of the same transcript (an OpenAPI document's), grouped with these. */
  more: RawFinding[] = [],
  other: OtherSide = 'emulator',
): Finding[] {
  const findings = new Findings(other);
  const requests = new Map<string, { request: RequestLine; line: number }>();
  const values = transcript.header.values ?? {};
  transcript.events.forEach((event, index) => {
    const line = transcript.lines[index] as number;
    if (event.type === 'request') {
      requests.set(event.id, { request: event, line });
      return;
    }
    if (event.type !== 'answer') return;
    const asked = requests.get(event.request);
    const answer = replayed.answers.get(event.request);
    if (asked === undefined || answer === undefined) return;
    const what = `${asked.request.method} ${asked.request.path}`;
    findings.path = asked.request.path;
    if (event.status !== answer.status)
      findings.add(
        'status',
        line,
        'answer.status',
        `${what}: the transcript has ${event.status}, the emulator ${answer.status}`,
        event.status,
        answer.status,
      );
    const [codeA, codeB] = [errorCode(event), errorCode(answer)];
    if (codeA !== codeB) {
      // The emulator's own answer applies by its rules; a provider's other code (a renamed one) must be shown to.
      const both =
        codeA !== undefined &&
        codeB !== undefined &&
        applies(codeA, asked.request, values, replayed.limits) &&
        (other === 'emulator' || applies(codeB, asked.request, values, replayed.limits));
      if (both)
        findings.add(
          'error-precedence',
          line,
          'answer.body.message',
          `${what}: both ${codeA} (${fieldOfCode(codeA)}) and ${codeB} (${fieldOfCode(codeB)}) apply; the transcript's provider answers ${codeA} first, the emulator ${codeB}`,
          codeA,
          codeB,
        );
      else
        findings.add(
          'error-code',
          line,
          'answer.body.message',
          `${what}: the transcript has ${codeA ?? 'no error'}, the emulator ${codeB ?? 'no error'}`,
          codeA,
          codeB,
        );
    }
    if (event.status !== answer.status || codeA !== codeB) return;
    if (event.retryAfter !== answer.retryAfter)
      findings.add(
        'retry-after',
        line,
        'answer.retryAfter',
        `the transcript has ${short(event.retryAfter ?? null)}, the emulator ${short(answer.retryAfter ?? null)}`,
        event.retryAfter,
        answer.retryAfter,
      );
    compareValues(
      findings,
      rules,
      line,
      'answer.body',
      event.body ?? event.bodyText ?? null,
      answer.body ?? answer.bodyText ?? null,
    );
  });
  findings.path = undefined;
  for (const { line, message, reason } of replayed.unmatchedReplies)
    findings.add(
      'reply-unmatched',
      line,
      'reply.message',
      reason === undefined
        ? `${message} was never issued by the emulator, so the reply could not be injected`
        : `the reply to ${message} could not be injected: ${reason}`,
    );
  compareWebhooks(findings, rules, transcript, replayed);
  const credits = creditCauses(transcript, replayed);
  const judged = (finding: RawFinding): boolean =>
    finding.kind === 'credit-changed' && finding.field === 'answer.body.balance' && credits.reads.has(finding.line);
  const kept = credits.findings.filter((finding) => !rules.ignore.some((pattern) => pattern.test(finding.field)));
  return groupFindings([...findings.list.filter((finding) => !judged(finding)), ...kept, ...more], rules);
}
