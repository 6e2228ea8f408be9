/**
 * Replays a transcript into a fresh emulator: a world (test clock and account) starting at the transcript's start,
 * the clock moved to each line's time, each request reissued (re-signed with the world's secret), each reply injected,
 * the webhooks caught in process and answered as the transcript's receiver answered; what the emulator does is
 * templated with bindings of its own, line for line comparable with the transcript.
 */

import { type Emulator, createEmulator } from '../emulator.js';
import type { EmulatorOptions } from '../options.js';
import { decodeBody } from '../http/body.js';
import { ApiError } from '../domain/errors.js';
import { signRequest } from '../domain/signing.js';
import type { Environment } from '../domain/environment.js';
import { Bindings } from './bindings.js';
import { basicAuthorization } from './emulatorTranscript.js';
import type { AnswerLine, RequestLine, Transcript, WebhookLine } from './transcript.js';

/** Where the world's webhooks go: caught in this process, never on a socket. */
const hookOrigin = 'http://parity.replay';
const replayOrigin = 'http://parity.replay';

export interface ReplayOptions {
  /** Settings of the fresh emulator (limits, pricing, error envelope…); the clock is always a manual test clock. */
  emulator?: Omit<EmulatorOptions, 'clock'>;
}

export interface Replayed {
  /** The emulator's answer to each request, by the request line's id. */
  answers: Map<string, AnswerLine>;
  /** Every webhook try the emulator made, in order, templated. */
  webhooks: WebhookLine[];
  /** Replies the transcript names a message for that the replay never issued. */
  unmatchedReplies: { line: number; message: string; reason?: string }[];
  /** What the emulator charged for each request (its balance before less after), by the request line's id. */
  charges?: Map<string, number>;
  /** Field limits of the emulator that replayed, for telling which errors apply to a request. */
  limits: { batchLimit: number; messageLimit: number };
}

/** The status the transcript's receiver gave a post of this payload at this try (200 when the transcript has none). */
function receiverAnswers(transcript: Transcript): Map<string, number> {
  const posts = new Map<string, WebhookLine>();
  const answers = new Map<string, number>();
  for (const event of transcript.events) {
    if (event.type === 'webhook') posts.set(event.id, event);
    if (event.type === 'webhook-answer') {
      const post = posts.get(event.webhook);
      if (post === undefined) continue;
      // No answer (a timeout, a refused connection) is replayed as a 503: a replay never waits out a timeout.
      answers.set(`${post.attempt} ${JSON.stringify(post.payload)}`, event.status ?? 503);
    }
  }
  return answers;
}

function startBalances(transcript: Transcript): Partial<Record<Environment, number>> {
  const balances: Partial<Record<Environment, number>> = {};
  for (const event of transcript.events)
    if (event.type === 'account' && balances[event.environment] === undefined)
      balances[event.environment] = event.balance;
  return balances;
}

export async function replayTranscript(transcript: Transcript, options: ReplayOptions = {}): Promise<Replayed> {
  const { header } = transcript;
  const startMs = Date.parse(header.startTime);
  const emulator = createEmulator({ seed: 'parity', ...options.emulator, clock: 'manual' });
  const bindings = new Bindings({
    startMs,
    timeZone: header.timeZone,
    ...(header.values ? { values: header.values } : {}),
  });
  const balances = startBalances(transcript);
  const hookUrl = `${hookOrigin}/hooks`;
  const { clock, account } = await emulator.worlds.create({
    name: 'parity replay',
    startTime: new Date(startMs).toISOString(),
    account: {
      webhookUrl: hookUrl,
      sandboxWebhookUrl: hookUrl,
      ...(balances.live === undefined ? {} : { balance: balances.live }),
      ...(balances.sandbox === undefined ? {} : { sandboxBalance: balances.sandbox }),
    },
  });
  bindings.key(account.apiKey);
  const answersOf = receiverAnswers(transcript);
  const replayed: Replayed = {
    answers: new Map(),
    webhooks: [],
    unmatchedReplies: [],
    charges: new Map(),
    limits: { batchLimit: emulator.options.batchLimit, messageLimit: emulator.options.messageLimit },
  };
  let now = startMs;
  const repliesSeen = new Map<string, number>();
  emulator.receiveWebhooksLocally(hookOrigin, ({ headers, body }) => {
    let payload: unknown;
    try {
      payload = bindings.template(JSON.parse(body));
    } catch {
      payload = body;
    }
    const attempt = Number(headers['x-emulator-attempt'] ?? 1);
    replayed.webhooks.push({
      t: Math.max(0, now - startMs),
      type: 'webhook',
      id: `w${replayed.webhooks.length + 1}`,
      attempt,
      payload,
      signatureValid: null,
    });
    return answersOf.get(`${attempt} ${JSON.stringify(payload)}`) ?? 200;
  });
  try {
    for (const [index, event] of transcript.events.entries()) {
      const due = startMs + event.t;
      if (due > now) {
        now = due;
        await emulator.clocks.set(clock.id, new Date(due).toISOString());
      }
      if (event.type === 'request') {
        const balance = async (): Promise<number> =>
          (await emulator.accounts.get(account.apiKey))[event.environment].balance;
        const before = await balance();
        const answer = await reissue(event, bindings, account, (request) => emulator.fetch(request));
        replayed.answers.set(event.id, { ...answer, t: event.t });
        replayed.charges?.set(event.id, before - (await balance()));
      } else if (event.type === 'reply') {
        const id = bindings.valueOf(event.message);
        if (id === undefined) {
          replayed.unmatchedReplies.push({ line: transcript.lines[index] as number, message: event.message });
          continue;
        }
        // A reply the world's own scenario made (a magic number's) is the recorded one, not a second one.
        const key = `${id} ${event.from} ${event.text}`;
        const seen = (repliesSeen.get(key) ?? 0) + 1;
        repliesSeen.set(key, seen);
        if ((await worldReplies(emulator, account.apiKey, key)) >= seen) continue;
        try {
          await emulator.replies.inject(id, { from: event.from, text: event.text });
        } catch (error) {
          // The replay went another way (its message has other recipients): a finding, not a replay that stops.
          if (!(error instanceof ApiError)) throw error;
          const reason = error.description;
          replayed.unmatchedReplies.push({ line: transcript.lines[index] as number, message: event.message, reason });
        }
      }
    }
    await emulator.webhooks.settled({ account: account.apiKey });
  } finally {
    await emulator.close();
  }
  return replayed;
}

/** How many replies the world holds to a message from a number with a text (`key` is the three, spaced). */
async function worldReplies(emulator: Emulator, account: string, key: string): Promise<number> {
  let count = 0;
  for (let page = 1; ; page++) {
    const { items, total } = await emulator.replies.list({ account, page, limit: 1000 });
    for (const reply of items) if (`${reply.in_reply_to} ${reply.recipient[0]} ${reply.message}` === key) count += 1;
    if (items.length === 0 || page * 1000 >= total) return count;
  }
}

/** The fields a body carries, for its signature (a body that does not parse is signed as no fields). */
function fieldsOf(body: string, contentType: string | undefined): Record<string, unknown> {
  try {
    return decodeBody(new TextEncoder().encode(body), contentType) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * One transcript request sent with `send` as this side's bindings make it: its ids, references and times resolved,
 * the session's key replaced by `account`'s, a signature made with `account`'s secret (a deliberately wrong one where
 * the transcript's was wrong); its answer templated with the same bindings.
 */
export async function reissue(
  event: RequestLine,
  bindings: Bindings,
  account: { apiKey: string; signingSecret: string },
  send: (request: Request) => Promise<Response>,
  origin = replayOrigin,
): Promise<Omit<AnswerLine, 't'>> {
  const path = bindings.resolveText(event.path, origin);
  const query = event.query === undefined ? '' : `?${bindings.resolveText(event.query, origin)}`;
  const body =
    event.body !== undefined
      ? JSON.stringify(bindings.resolve(event.body, origin))
      : event.bodyText !== undefined
        ? event.bodyText
        : undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers)) {
    if (name === 'authorization' && value.startsWith('Basic {{key')) {
      const key = bindings.resolveText(value.slice(6), origin);
      headers.set(name, basicAuthorization(key.startsWith('{{') ? `pk_parity_other_${key.replace(/\D/g, '')}` : key));
    } else if (name === 'signature' && value.startsWith('{{signature')) {
      const fields = fieldsOf(body ?? '', event.headers['content-type']);
      const secret = value === '{{signature}}' ? account.signingSecret : `not ${account.signingSecret}`;
      headers.set(name, signRequest(fields, secret));
    } else headers.set(name, bindings.resolveText(value, origin));
  }
  const response = await send(
    new Request(`${origin}${path}${query}`, {
      method: event.method,
      headers,
      ...(body === undefined || event.method === 'GET' || event.method === 'HEAD' ? {} : { body }),
    }),
  );
  const text = await response.text();
  const retryAfter = response.headers.get('retry-after');
  let parsed: unknown;
  let isJson = text !== '';
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    isJson = false;
  }
  return {
    type: 'answer',
    request: event.id,
    status: response.status,
    ...(isJson ? { body: bindings.template(parsed) } : text === '' ? {} : { bodyText: text }),
    ...(retryAfter === null ? {} : { retryAfter }),
  };
}
