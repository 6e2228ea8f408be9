/**
 * One webhook try through undici's keep-alive connection pools, under a deadline that covers the whole
 * try (waiting for a connection, connecting, the headers and the body) and cannot be lost.
 *
 * Why undici's low-level `dispatch`: a try through it costs well under what `node:http`'s ClientRequest and its streams
 * cost (about 140 against 230 µs of CPU per post to a local receiver, docs/decisions/0001-fast-lane.md), with no
 * stream, promise or listener per answer. Why not `fetch`: on Node 20 a fetch whose signal is
 * `AbortSignal.any([AbortSignal.timeout(ms), …])` is never aborted once a garbage collection runs before the timeout
 * (nodejs/node#55428, nodejs/undici#4068) and each combined signal leaks (nodejs/node#55351); the deadline here is held
 * by the try itself. undici is loaded on the first try, so start-up does not pay for it.
 */

import type { Dispatcher } from 'undici';
import type { OwnAddresses } from '../domain/ownAddress.js';
import { answerExcerptBytes } from '../domain/webhookEvent.js';
import { type Deadline, Deadlines } from './deadlines.js';
import { OwnAddressRefused, guardedConnector } from './ownGuard.js';

/** How a try ended: the receiver's status once its whole answer arrived, or why there was none. */
/** Whether a URL is one a webhook can be posted to: http or https, nothing else. */
export const isHttp = (target: URL): boolean => target.protocol === 'http:' || target.protocol === 'https:';

export type TryResult =
  | {
      status: number;
      /** Set when the answer's body went past the transport's limit and was not read further. */
      cutAfterBytes?: number;
      /** The start of the body of an answer other than 200 (`answerExcerptBytes` at most), when it had one. */
      answer?: string;
    }
  | {
      error: string;
      /** Set when the connection reached this emulator itself: nothing was sent, and a re-attempt would reach it again. */
      ownAddress?: true;
    };

/** The kept start of an answer's body as text; a character cut at the limit is dropped, not shown broken. */
function answerExcerpt(bytes: Buffer): string | undefined {
  if (bytes.length === 0) return undefined;
  return bytes
    .subarray(0, answerExcerptBytes)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
}

/** One webhook post as an in-process receiver gets it: where it was going, its headers (lowercase) and its JSON text. */
export interface WebhookDelivery {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** An in-process receiver's answer with its body: the start of a refusal's body is logged with the try, as over a socket. */
export interface WebhookAnswer {
  readonly status: number;
  readonly body?: string;
}

/**
 * A receiver in the emulator's own process (the vitest fixture's catcher, an app's handler): answers a post with an HTTP
 * status, or a status and body, at once or later; one that never answers times out like a hanging socket, one that
 * throws counts as a failed try.
 */
export type WebhookReceiver = (delivery: WebhookDelivery) => number | WebhookAnswer | Promise<number | WebhookAnswer>;

/** A try handed to an in-process receiver: the same deadline as a try on a socket, ended by close() alike. */
class LocalTry implements Deadline {
  done = false;

  constructor(
    readonly deadline: number,
    private readonly timeoutMs: number,
    private readonly resolve: (result: TryResult) => void,
    private readonly release: () => void,
  ) {}

  expire(): void {
    this.finish({ error: `timeout after ${this.timeoutMs} ms` });
  }

  finish(result: TryResult): void {
    if (this.done) return;
    this.done = true;
    this.resolve(result);
    this.release();
  }
}

/**
 * Connections kept open per receiver. A try beyond them waits for a free one, and its timeout runs from
 * when it gets one: thousands of tries due at once (a clock jump) used to time out in the queue without
 * ever reaching a healthy receiver, and their events failed (docs/decisions/0001-fast-lane.md).
 */
const socketsPerReceiver = 256;

/** Tries under way to one receiver, and the tries waiting for one of its connections (their timeout not running yet). */
interface Receiver {
  busy: number;
  waiting: (() => void)[];
}

/** Where a URL posts to, parsed once per URL rather than once per try. */
type Target = { origin: string; path: string; authorization: string | undefined } | { error: string };

/** Ends a try whose deadline passed while it still waited for a connection: undici then drops it unsent. */
class ExpiredTry extends Error {}

/** One try, as undici's dispatch handler: it records the answer's status and ends once the answer is complete. */
class Try implements Deadline, Dispatcher.DispatchHandler {
  done = false;
  private status = 0;
  private answering = false;
  private read = 0;
  /** The start of a refusal's body (an answer other than 200), kept for the log; none for a 200. */
  private kept: Buffer[] | undefined;
  private abort: ((reason?: Error) => void) | undefined;

  constructor(
    readonly deadline: number,
    private readonly timeoutMs: number,
    private readonly maxAnswerBytes: number,
    private readonly resolve: (result: TryResult) => void,
    private readonly release: () => void,
  ) {}

  onConnect(abort: (reason?: Error) => void): void {
    if (this.done) throw new ExpiredTry('the try ended before a connection was free');
    this.abort = abort;
  }

  onHeaders(statusCode: number): boolean {
    this.status = statusCode;
    this.answering = true;
    if (statusCode !== 200) this.kept = [];
    return true;
  }

  /**
   * The body is read and dropped, so the connection can be reused; past `maxAnswerBytes` the try ends with the status
   * it has and the connection is closed, so an endless or huge answer costs a bounded read, not the whole timeout.
   */
  onData(chunk: Buffer): boolean {
    const before = this.read;
    this.read += chunk.length;
    if (this.kept !== undefined && before < answerExcerptBytes)
      this.kept.push(chunk.subarray(0, answerExcerptBytes - before));
    if (this.read <= this.maxAnswerBytes) return true;
    this.finish({ ...this.answered(), cutAfterBytes: this.maxAnswerBytes });
    return false;
  }

  onComplete(): void {
    this.finish(this.answered());
  }

  /** The status, with the kept start of a refusal's body when there was one. */
  private answered(): { status: number; answer?: string } {
    const answer = this.kept === undefined ? undefined : answerExcerpt(Buffer.concat(this.kept));
    return answer === undefined ? { status: this.status } : { status: this.status, answer };
  }

  onError(error: Error): void {
    if (error instanceof OwnAddressRefused) this.finish({ error: error.message, ownAddress: true });
    else this.finish({ error: describe(error, this.answering) });
  }

  expire(): void {
    this.finish({ error: `timeout after ${this.timeoutMs} ms` });
  }

  finish(result: TryResult): void {
    if (this.done) return;
    this.done = true;
    // A try that did not end with a complete answer leaves its connection in an unknown state: undici closes it on abort.
    if ('error' in result) this.abort?.(new Error(result.error));
    else if (result.cutAfterBytes !== undefined) this.abort?.(new Error('answer cut'));
    this.resolve(result);
    this.release();
  }
}

function describe(error: Error & { code?: string }, answering: boolean): string {
  if (answering) return 'connection closed mid-response';
  if (error.code === 'UND_ERR_SOCKET') return 'connection closed before an answer';
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

function parseTarget(url: string): Target {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { error: `not a URL: ${url}` };
  }
  if (!isHttp(target)) return { error: `unsupported protocol ${target.protocol}` };
  // Credentials in the URL become Basic auth, as node:http does with them.
  const credentials =
    target.username || target.password
      ? `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`
      : undefined;
  return {
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    authorization: credentials === undefined ? undefined : `Basic ${Buffer.from(credentials).toString('base64')}`,
  };
}

export class WebhookTransport {
  private agent: Dispatcher | undefined;
  private loading: Promise<Dispatcher> | undefined;
  private readonly targets = new Map<string, Target>();
  private readonly receivers = new Map<string, Receiver>();
  private readonly deadlines = new Deadlines<Try | LocalTry>();
  /** URL prefixes whose posts go to a receiver in this process instead of a socket. */
  private readonly local = new Map<string, WebhookReceiver>();
  private readonly release = (): void => this.deadlines.release();
  private closed = false;

  /**
   * `timeoutMs` bounds every try, from its start to the last byte of the answer; `maxAnswerBytes` bounds how much of an
   * answer's body is read (the emulator reads all of it; check-receiver stops early).
   */
  constructor(
    private readonly timeoutMs: number,
    /** This emulator's own addresses: a connection that reaches one is closed unused (ownGuard.ts). */
    private readonly own: OwnAddresses | undefined,
    private readonly maxAnswerBytes = Number.POSITIVE_INFINITY,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Hands posts to URLs that start with `prefix` to `receiver` in this process, with no socket (everything else about a
   * try, its deadline included, stays); answers the function that stops it.
   */
  receiveLocally(prefix: string, receiver: WebhookReceiver): () => void {
    this.local.set(prefix, receiver);
    return () => {
      if (this.local.get(prefix) === receiver) this.local.delete(prefix);
    };
  }

  /** POSTs `body` to `url`; resolves (never rejects) once the answer is complete, or fails after the timeout. */
  post(url: string, body: string, headers: Record<string, string>): Promise<TryResult> {
    if (this.closed) return Promise.resolve({ error: 'emulator closed' });
    if (this.local.size > 0) {
      for (const [prefix, receiver] of this.local)
        if (url.startsWith(prefix)) return this.postLocally(receiver, url, body, headers);
    }
    const target = this.target(url);
    if ('error' in target) return Promise.resolve({ error: target.error });
    // Loading undici (once) is not part of the try: its deadline starts when the request can go.
    const agent = this.agent;
    if (!agent) return this.load().then(() => this.post(url, body, headers));
    if (target.authorization !== undefined) headers = { authorization: target.authorization, ...headers };
    const options: Dispatcher.DispatchOptions = {
      origin: target.origin,
      path: target.path,
      method: 'POST',
      headers,
      body,
    };
    const receiver = this.receiverFor(target.origin);
    return new Promise((resolve) => {
      const start = (): void => {
        if (this.closed) return resolve({ error: 'emulator closed' });
        receiver.busy += 1;
        const ended = (result: TryResult): void => {
          this.freed(target.origin, receiver);
          resolve(result);
        };
        const attempt = new Try(
          performance.now() + this.timeoutMs,
          this.timeoutMs,
          this.maxAnswerBytes,
          ended,
          this.release,
        );
        this.deadlines.add(attempt);
        agent.dispatch(options, attempt);
      };
      if (receiver.busy < socketsPerReceiver) start();
      else receiver.waiting.push(start);
    });
  }

  private postLocally(receiver: WebhookReceiver, url: string, body: string, headers: Record<string, string>) {
    return new Promise<TryResult>((resolve) => {
      const attempt = new LocalTry(performance.now() + this.timeoutMs, this.timeoutMs, resolve, this.release);
      this.deadlines.add(attempt);
      const failed = (error: unknown): void =>
        attempt.finish({ error: `receiver failed: ${(error as Error)?.message}` });
      const answered = (answer: number | WebhookAnswer): void => {
        if (typeof answer === 'number') return attempt.finish({ status: answer });
        const excerpt =
          answer.status === 200 || answer.body === undefined
            ? undefined
            : answerExcerpt(Buffer.from(answer.body.slice(0, answerExcerptBytes)));
        attempt.finish(excerpt === undefined ? { status: answer.status } : { status: answer.status, answer: excerpt });
      };
      try {
        Promise.resolve(receiver({ url, headers, body })).then(answered, failed);
      } catch (error) {
        failed(error);
      }
    });
  }

  /** Ends every try under way (as "emulator closed"), refuses new ones and closes kept-alive connections. */
  close(): void {
    this.closed = true;
    const open = this.deadlines.open();
    this.deadlines.clear();
    for (const attempt of open) attempt.finish({ error: 'emulator closed' });
    for (const receiver of this.receivers.values()) for (const start of receiver.waiting.splice(0)) start();
    void this.agent?.destroy();
  }

  private receiverFor(origin: string): Receiver {
    let receiver = this.receivers.get(origin);
    if (!receiver) {
      receiver = { busy: 0, waiting: [] };
      this.receivers.set(origin, receiver);
    }
    return receiver;
  }

  /** A try ended: the next waiting one takes its connection, or the receiver is forgotten when nothing is left. */
  private freed(origin: string, receiver: Receiver): void {
    receiver.busy -= 1;
    const next = receiver.waiting.shift();
    if (next) next();
    else if (receiver.busy === 0) this.receivers.delete(origin);
  }

  private target(url: string): Target {
    let target = this.targets.get(url);
    if (target === undefined) {
      if (this.targets.size >= 1000) this.targets.clear(); // URLs come from account settings: a handful, but never unbounded
      target = parseTarget(url);
      this.targets.set(url, target);
    }
    return target;
  }

  private load(): Promise<Dispatcher> {
    this.loading ??= import('undici').then(({ Agent, buildConnector }) => {
      // No timeouts of undici's own: the deadline covers the whole try, as long as the user set it.
      const agent = new Agent({
        connections: socketsPerReceiver,
        headersTimeout: 0,
        bodyTimeout: 0,
        connect: this.own === undefined ? { timeout: 0 } : guardedConnector(buildConnector({ timeout: 0 }), this.own),
      });
      this.agent = agent;
      if (this.closed) void agent.destroy();
      return agent;
    });
    return this.loading;
  }
}
