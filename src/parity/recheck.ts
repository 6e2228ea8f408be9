/**
 * The other direction: a committed transcript's requests reissued at a provider, paced by their recorded times, with
 * one key and secret, redirects not followed, the provider's webhooks heard when it is given an address to post to,
 * and what it answers now compared with what the transcript holds. For a scheduled job, not for every change: it calls
 * the real provider, and replies (which a phone makes) are not rechecked.
 */

import { apiPrefixes } from '../domain/environment.js';
import type { Environment } from '../domain/environment.js';
import { apiOperations } from '../domain/apiOperations.js';
import { settings } from '../options.js';
import { Bindings } from './bindings.js';
import { basicAuthorization } from './emulatorTranscript.js';
import { compareTranscript } from './compareTranscript.js';
import { type Finding, type RawFinding, groupFindings } from './groupFindings.js';
import { type ParityReport, parityReport } from './parityDiff.js';
import { type ParityRulesInput, parityRules } from './parityRules.js';
import { RecheckPace, type SeenNotification } from './recheckPace.js';
import { type HeardPost, startRecheckReceiver } from './recheckReceiver.js';
import type { Replayed } from './replay.js';
import { reissue } from './replay.js';
import { type Transcript, type TranscriptEvent, type WebhookLine, parseTranscript } from './transcript.js';

export interface RecheckOptions {
  /** The provider's base URL. */
  upstream: string;
  /** The one key every request is sent with (a request the transcript made without a key is still sent without). */
  apiKey: string;
  signingSecret: string;
  rules?: string | ParityRulesInput;
  /** The fetch to use (default the global one); it is always asked not to follow redirects. */
  fetch?: (request: Request, init: RequestInit) => Promise<Response>;
  /**
   * Compare times as offsets from the start, within the rules' tolerance. Off by default: a provider's clock and its
   * rounding (a schedule to the minute) differ from run to run, so only a time's presence and shape are compared.
   */
  keepTime?: boolean;
  /**
   * How many times faster than recorded the requests go (default 1: at their recorded times). A gap the transcript
   * shows the provider needed to move a message (from its send to a notification the app saw) is kept whole.
   */
  pace?: number;
  /**
   * Hear the provider's webhooks on this port (0: a free one) and compare them too; `onListening` gets the address to
   * give the provider as its webhook URL before the first request. Without it webhooks are not rechecked.
   */
  webhooks?: { port: number; host?: string; onListening?: (url: string) => void | Promise<void> };
  /**
   * How late a notification may come (default 1000 ms): how long to keep listening after the last one is due, for late
   * and extra ones, and at most how long a request waits, past its time, for the notifications the app had seen
   * before it.
   */
  settleMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** A notification the provider sends by itself; a reply (a phone's) cannot be made again, so neither side has one. */
function isReply(payload: unknown): boolean {
  return (payload as { type?: unknown } | null)?.type === 'sms-reply';
}

/**
 * The transcript without what a recheck does not redo or cannot compare: replies and their webhooks, every webhook
 * when not heard, and the answers the provider redirected with the notifications of the messages they would have sent
 * (the redirect is the finding; what follows from it is not another).
 */
function rechecked(parsed: Transcript, hearing: boolean, redirected: ReadonlySet<string>): Transcript {
  const unissued = new Set<unknown>();
  for (const event of parsed.events)
    if (event.type === 'answer' && redirected.has(event.request))
      unissued.add((event.body as { id?: unknown } | undefined)?.id);
  const kept = (event: TranscriptEvent): boolean => {
    if (event.type === 'reply') return false;
    if (event.type === 'answer') return !redirected.has(event.request);
    if (event.type === 'webhook')
      return hearing && !isReply(event.payload) && !unissued.has((event.payload as { id?: unknown } | null)?.id);
    return event.type !== 'webhook-answer' || hearing;
  };
  const indexes = parsed.events.flatMap((event, index) => (kept(event) ? [index] : []));
  return {
    header: parsed.header,
    events: indexes.map((index) => parsed.events[index] as TranscriptEvent),
    lines: indexes.map((index) => parsed.lines[index] as number),
  };
}

/** A redirect the provider answered, as a finding of its own: one per place it points to, listing the lines. */
function redirectFindings(parsed: Transcript, redirects: ReadonlyMap<string, string>): RawFinding[] {
  return parsed.events.flatMap((event, index) => {
    const location = event.type === 'answer' ? redirects.get(event.request) : undefined;
    if (event.type !== 'answer' || location === undefined) return [];
    const target = /^https?:\/\/[^/?#]+/.exec(location)?.[0] ?? location;
    return [
      {
        kind: 'status' as const,
        line: parsed.lines[index] as number,
        field: 'answer.status',
        message: `the provider answers a redirect to ${target}, not followed`,
        emulator: target,
      },
    ];
  });
}

/**
 * A recheck's words for the sides: a comparison's messages say "the provider" for the transcript's side and "the
 * emulator" for the other, which in a recheck is the provider now.
 */
function rechecksWords(message: string): string {
  return message.replace(/the transcript's provider|the provider|the emulator/g, (words) =>
    words === 'the emulator' ? 'the provider' : 'the transcript',
  );
}

/** A finding with the other side's value under `provider`, as a recheck's report names it, not `emulator`. */
function providerSide({ emulator, ...finding }: Finding): Finding {
  return emulator === undefined ? finding : { ...finding, provider: emulator };
}

/** The balance each environment had when the session first used it, as the transcript's account lines hold it. */
function recordedBalances(parsed: Transcript): Map<Environment, number> {
  const balances = new Map<Environment, number>();
  for (const event of parsed.events)
    if (event.type === 'account' && !balances.has(event.environment)) balances.set(event.environment, event.balance);
  return balances;
}

/**
 * Reissues `transcript` at `options.upstream` and reports what the provider now answers differently.
 *
 * @example
 * const report = await parityRecheck(readFileSync('session.jsonl', 'utf8'), { upstream, apiKey, signingSecret });
 */
export async function parityRecheck(transcript: string | Transcript, options: RecheckOptions): Promise<ParityReport> {
  const parsed = typeof transcript === 'string' ? parseTranscript(transcript) : transcript;
  const rules = parityRules(options.rules);
  if (!options.keepTime) rules.timeToleranceMs = Number.POSITIVE_INFINITY;
  const pace = new RecheckPace(parsed, options.pace ?? 1);
  const base = options.upstream.replace(/\/$/, '');
  const fetchOf = options.fetch ?? ((request: Request, init: RequestInit) => fetch(request, init));
  const redirects = new Map<string, string>();
  let current = '';
  // Never followed: a redirect is itself a finding, and following one would take the key to another host.
  const send = async (request: Request): Promise<Response> => {
    const response = await fetchOf(request, { redirect: 'manual' });
    if (response.status >= 300 && response.status < 400)
      redirects.set(current, response.headers.get('location') ?? '(no Location)');
    return response;
  };
  const receiver =
    options.webhooks === undefined
      ? undefined
      : await startRecheckReceiver(options.webhooks.port, options.webhooks.host);
  try {
    if (receiver !== undefined) await options.webhooks?.onListening?.(receiver.url);
    const startMs = Date.now();
    const bindings = new Bindings({
      startMs,
      timeZone: parsed.header.timeZone,
      ...(parsed.header.values ? { values: parsed.header.values } : {}),
    });
    bindings.key(options.apiKey);
    // The provider's balance now against the transcript's at the start: later reads are compared as what was charged.
    const shift = new Map<Environment, number>();
    for (const [environment, recorded] of recordedBalances(parsed)) {
      const now = await providerBalance(base, environment, options.apiKey, send);
      if (now !== undefined) shift.set(environment, recorded - now);
    }
    const answers: Replayed['answers'] = new Map();
    const sentAt = new Map<string, number>();
    const settleMs = options.settleMs ?? 1000;
    for (const event of parsed.events) {
      if (event.type !== 'request') continue;
      const due = pace.dueOf(event.id, startMs, sentAt);
      await sleep(due - Date.now());
      // A provider on a loaded machine moves later than it did while recorded: a read the app made after a notification
      // waits for the provider's own, not only for the time the move took then (a bounded wait: one may never come).
      const seen = pace.seenBefore(event.id);
      if (receiver !== undefined && seen.length > 0)
        await receiver.until((posts) => allHeard(seen, posts, bindings), due + settleMs);
      sentAt.set(event.id, Date.now());
      current = event.id;
      const answer = await reissue(event, bindings, options, send, base);
      answers.set(event.id, { ...shifted(answer, shift.get(event.environment) ?? 0), t: event.t });
    }
    if (receiver !== undefined) await sleep(pace.endOf(startMs, sentAt) + settleMs - Date.now());
    const webhooks = receiver === undefined ? [] : heard(receiver.posts, bindings, startMs);
    const compared = rechecked(parsed, receiver !== undefined, new Set(redirects.keys()));
    const findings = [
      ...compareTranscript(
        compared,
        { answers, webhooks, unmatchedReplies: [], limits: defaultLimits() },
        rules,
        [],
        'provider',
      ).map((finding) => ({ ...finding, message: rechecksWords(finding.message) })),
      ...groupFindings(redirectFindings(parsed, redirects), rules),
    ]
      .map(providerSide)
      .sort((a, b) => a.line - b.line);
    return parityReport(compared, findings, rules);
  } finally {
    await receiver?.close();
  }
}

/** The provider's balance in an environment now, read with the recheck's key (undefined when it does not answer one). */
async function providerBalance(
  base: string,
  environment: Environment,
  apiKey: string,
  send: (request: Request) => Promise<Response>,
): Promise<number | undefined> {
  const path = `${apiPrefixes[environment]}${apiOperations.balance.path}`;
  const response = await send(
    new Request(`${base}${path}`, { headers: { authorization: basicAuthorization(apiKey) } }),
  );
  const body = (await response.json().catch(() => undefined)) as { balance?: unknown } | undefined;
  return response.ok && typeof body?.balance === 'number' ? body.balance : undefined;
}

/** An answer whose balance is moved by `shift`: what the transcript's start balance would read now. */
function shifted<T extends { body?: unknown }>(answer: T, shift: number): T {
  const body = answer.body as { balance?: unknown } | undefined;
  if (shift === 0 || typeof body?.balance !== 'number') return answer;
  return { ...answer, body: { ...body, balance: body.balance + shift } };
}

/**
 * Whether the provider has posted, for each message, the status the app had last seen: its id is the one the provider
 * issued for the placeholder (a message it never issued is not waited for). Nothing is templated here: ids are learned
 * from the answers first.
 */
function allHeard(seen: readonly SeenNotification[], posts: readonly HeardPost[], bindings: Bindings): boolean {
  const said = new Set<string>();
  for (const post of posts) {
    try {
      const { id, status } = JSON.parse(post.body) as { id?: unknown; status?: unknown };
      said.add(JSON.stringify([id, status]));
    } catch {
      // A body that is not a JSON object names no message.
    }
  }
  return seen.every(({ message, status }) => {
    const id = bindings.valueOf(message);
    return id === undefined || said.has(JSON.stringify([id, status]));
  });
}

/** The posts heard, in the order they came, templated with the recheck's bindings as webhook lines. */
function heard(posts: readonly HeardPost[], bindings: Bindings, startMs: number): WebhookLine[] {
  return posts.flatMap((post, index) => {
    let payload: unknown;
    try {
      payload = JSON.parse(post.body);
    } catch {
      payload = post.body;
    }
    if (isReply(payload)) return [];
    // Every post is answered 200, so a second post of the same body is a new notification unless the provider counts.
    const attempt = post.attempt ?? 1;
    return [
      {
        t: Math.max(0, post.at - startMs),
        type: 'webhook' as const,
        id: `w${index + 1}`,
        attempt,
        payload: bindings.template(payload),
        signatureValid: null,
      },
    ];
  });
}

/** The provider's field limits as the emulator's defaults have them, for telling which errors apply to a request. */
function defaultLimits(): Replayed['limits'] {
  return {
    batchLimit: settings.batchLimit.schema.parse(undefined) as number,
    messageLimit: settings.messageLimit.schema.parse(undefined) as number,
  };
}
