/**
 * The recording proxy: an app points its base URL at it and its provider's webhooks at its webhook address; it forwards
 * every request to the provider with the app's own key and headers, relays every webhook to the app's receiver, and
 * writes each request, answer, webhook, receiver answer and inbound reply to a transcript as it happens. It keeps the
 * emulator's own guards: its Host check, its Origin check (on the webhook address), bounded waits and bounded bodies.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';
import { appendFileSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Agent } from 'undici';
import { apiEnvironment, apiPrefixes, defaultEnvironment, type Environment } from '../domain/environment.js';
import { apiOperations } from '../domain/apiOperations.js';
import { maskUrlCredentials, maskUrlsInText } from '../domain/credentials.js';
import { ApiError } from '../domain/errors.js';
import { nestedTooDeep } from '../domain/jsonScan.js';
import { HostCheck, guardHost } from '../http/checks/hostCheck.js';
import { foreignOrigin } from '../http/checks/foreignOrigin.js';
import { type ResponseSettings, errorAnswer } from '../http/respond.js';
import { ownNames } from '../http/server.js';
import type { OwnAddresses } from '../domain/ownAddress.js';
import { OwnAddressRefused, guardedConnector } from '../webhooks/ownGuard.js';
import { formatDuration } from './formatDuration.js';
import { Bindings } from './bindings.js';
import { basicKey, templateEvent } from './emulatorTranscript.js';
import { type TranscriptEvent, type TranscriptHeader, transcriptLine, transcriptVersion } from './transcript.js';

/** The path of the recorder's own webhook address: the provider posts here, the recorder relays to the app. */
export const recorderWebhookPath = '/_record/webhook';

/** Request headers a transcript keeps: the rest (host, lengths, agents, connection) says nothing about the API. */
const keptHeaders = new Set(['authorization', 'signature', 'content-type', 'x-emulator-outcome']);
/**
 * Headers never passed on, either way: those that describe one hop (RFC 9110 §7.6.1; any the Connection header names
 * too), a proxy's own credentials and challenge, and those fetch makes again for its own hop (host, length, encoding).
 */
const hopHeaders = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'host',
  'content-length',
  'accept-encoding',
  'content-encoding',
]);

/** How long the provider (and the app's receiver) may take to answer, the whole answer read, unless told otherwise. */
export const defaultUpstreamTimeoutMs = 30_000;
/** The largest body the recorder holds (a request, a provider's answer, a webhook, a receiver's answer) unless told otherwise. */
export const defaultRecorderBodySize = 16 * 1024 * 1024;

/** Error answers of the recorder's own guards, as the emulator writes them (documentation links at the upstream's). */
const guardSettings: ResponseSettings = {
  errorEnvelope: 'bare',
  docsUrl: undefined,
  offsetMinutes: 0,
  publicOrigin: undefined,
};

/** The headers of one message to pass on: all but the hop headers and those its Connection header names. */
function endToEnd(
  headers: Iterable<[string, string | string[] | undefined]>,
  connection: string | null | undefined,
): Headers {
  const named = new Set((connection ?? '').split(',').map((name) => name.trim().toLowerCase()));
  const passed = new Headers();
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (typeof value === 'string' && !hopHeaders.has(lower) && !named.has(lower)) passed.set(lower, value);
  }
  return passed;
}

/** A body past the recorder's size limit: it stopped reading it. */
class BodyTooLarge extends Error {
  constructor(limit: number) {
    super(`body over ${limit} bytes, the most the recorder holds (--max-body-size)`);
  }
}

/** A wait past the upstream timeout: it stopped waiting. */
class TimedOut extends Error {
  constructor(ms: number) {
    super(`timed out after ${formatDuration(ms)} (--upstream-timeout)`);
  }
}

export interface RecorderOptions {
  /** The provider's base URL (the one the app would use: `https://api.example.com`, or another emulator's origin). */
  upstream: string;
  /** The transcript file: written as the session goes, its header completed when the recorder closes. */
  out: string;
  /** The app's webhook receiver: each webhook the provider posts to the recorder is relayed there (else answered 200). */
  relay?: string;
  /** The provider's webhook signing secret, to record whether each post's `Webhook-Signature` is valid. */
  webhookSecret?: string;
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The clock the line times come from (default the wall clock). */
  now?: () => number;
  /** The offset a time placeholder without its own is written in (default `+02:00`, the provider's). */
  timeZone?: string;
  /** How long the provider and the app's receiver may take, the whole answer read (default defaultUpstreamTimeoutMs). */
  upstreamTimeoutMs?: number;
  /** The largest body held, each way (default defaultRecorderBodySize); reading stops past it. */
  maxBodySize?: number;
  /** Host names it answers to besides loopback ones and the address it listens on (as the emulator's allowedHosts). */
  allowedHosts?: readonly string[];
}

export interface Recorder {
  /** The base URL the app uses instead of the provider's. */
  readonly url: string;
  /** The webhook URL to give the provider instead of the app's. */
  readonly webhookUrl: string;
  /** How many events were written so far. */
  readonly events: number;
  /**
   * Stops accepting requests, waits for those under way (each bounded by the upstream timeout), and writes the
   * transcript whole, its header completed: to a temporary file beside it, renamed into place, so no reader (and no
   * second stop signal) ever finds it half written.
   */
  close(): Promise<void>;
}

/** A request's body, refused past `limit` bytes (the rest is not read). */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= limit) return void chunks.push(chunk);
      request.pause();
      reject(new BodyTooLarge(limit));
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** An answer's body as text, refused past `limit` bytes: the read stops there and the stream is cancelled. */
async function readAnswer(answer: { body: ReadableStream<Uint8Array> | null }, limit: number): Promise<string> {
  if (answer.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = answer.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLarge(limit);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A wait bounded by `ms` that also ends when `client` closes its connection first: `signal` aborts the fetch and the
 * read of its body, so nothing more is read from the far side once nobody waits for it.
 */
function boundedWait(ms: number, client?: ServerResponse): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TimedOut(ms)), ms);
  const left = () => {
    if (client !== undefined && !client.writableFinished) controller.abort(new Error('the client left'));
  };
  client?.once('close', left);
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      client?.off('close', left);
    },
  };
}

/** What ended a fetch under `signal`: the timeout or the client leaving as themselves, else the error. */
function failureOf(error: unknown, signal: AbortSignal): Error {
  if (signal.aborted && signal.reason instanceof Error) return signal.reason;
  // fetch words every failed connection "fetch failed"; a refusal to reach the recorder itself says why.
  const cause = (error as Error).cause;
  return cause instanceof OwnAddressRefused ? cause : (error as Error);
}

/** JSON as a value, else text; JSON nested deeper than a transcript is read is kept as text, so every line reads back. */
function jsonOrText(text: string): { body: unknown } | { bodyText: string } | Record<string, never> {
  if (text === '') return {};
  if (nestedTooDeep(text)) return { bodyText: text };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { bodyText: text };
  }
}

function errorCodeOf(body: unknown): string | undefined {
  const value = body as { message?: unknown; error?: { message?: unknown } } | null | undefined;
  const code = value?.message ?? value?.error?.message;
  return typeof code === 'string' ? code : undefined;
}

/** A sent message the recorder saw, so an inbound reply can name the message it answers. */
interface Sent {
  id: string;
  recipients: string[];
  reference: unknown;
}

/**
 * Starts the recording proxy.
 *
 * @example
 * const recorder = await startRecorder({ upstream: 'https://api.example.com', out: 'session.jsonl' });
 * // point the app at recorder.url and the provider's webhook setting at recorder.webhookUrl
 */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const upstream = new URL(options.upstream).origin + new URL(options.upstream).pathname.replace(/\/$/, '');
  const timeoutMs = options.upstreamTimeoutMs ?? defaultUpstreamTimeoutMs;
  const maxBody = options.maxBodySize ?? defaultRecorderBodySize;
  const now = options.now ?? Date.now;
  const startMs = now();
  const timeZone = options.timeZone ?? '+02:00';
  const bindings = new Bindings({ startMs, timeZone });
  const header: TranscriptHeader = {
    version: transcriptVersion,
    type: 'header',
    source: 'record',
    startTime: new Date(startMs).toISOString(),
    timeZone,
    upstream: maskUrlCredentials(options.upstream),
  };
  // The events go to a file of their own as they happen; close() writes the transcript whole from it.
  const eventsFile = `${options.out}.${process.pid}.events`;
  writeFileSync(eventsFile, '');
  let events = 0;
  let requests = 0;
  let posts = 0;
  const write = (event: TranscriptEvent): void => {
    appendFileSync(eventsFile, transcriptLine(templateEvent(event, bindings)));
    events += 1;
  };
  const t = (): number => Math.max(0, now() - startMs);
  // Where the recorder itself listens: no request or webhook is sent there. An --upstream or --relay on its own port
  // (under any name, or one that resolves to it) forwarded each request to itself again without end: one webhook made
  // 1,200 sockets in 5 s and kept going after its client left. Checked per connection, as the emulator's webhooks are.
  const own = { ports: [] as number[], names: [] as string[], origins: [] } satisfies OwnAddresses;
  let agent: Promise<{ agent: Agent; fetch: typeof import('undici').fetch }> | undefined;
  async function send(target: string, init: NonNullable<Parameters<typeof import('undici').fetch>[1]>) {
    const loaded = await (agent ??= import('undici').then(({ Agent, buildConnector, fetch }) => ({
      agent: new Agent({ connect: guardedConnector(buildConnector({}), own) }),
      fetch,
    })));
    return loaded.fetch(target, { ...init, dispatcher: loaded.agent });
  }
  const balancesSeen = new Set<string>();
  const sent: Sent[] = [];
  const unanswered = new Map<string, number>();

  /** Before a key's first request in an environment, its balance then: the replay starts from it. */
  async function recordBalance(authorization: string, environment: Environment): Promise<void> {
    const key = `${environment} ${authorization}`;
    if (balancesSeen.has(key) || basicKey(authorization) === undefined) return;
    balancesSeen.add(key);
    const wait = boundedWait(timeoutMs);
    try {
      const path = `${apiPrefixes[environment]}${apiOperations.balance.path}`;
      const answer = await send(`${upstream}${path}`, { headers: { authorization }, signal: wait.signal });
      const body = JSON.parse(await readAnswer(answer, maxBody)) as { balance?: unknown };
      if (answer.ok && typeof body.balance === 'number')
        write({ t: t(), type: 'account', environment, balance: body.balance });
    } catch {
      // No balance, no account line: the replay then starts from the emulator's default balance.
    } finally {
      wait.done();
    }
  }

  /** Answers a request the recorder refuses itself, as the emulator words the same refusal. */
  function refuse(request: IncomingMessage, response: ServerResponse, error: ApiError): void {
    const answer = errorAnswer({ url: url + (request.url ?? '/'), header: () => undefined }, error, guardSettings);
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  }

  async function proxy(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request, maxBody);
    const at = t();
    const url = new URL(request.url ?? '/', 'http://recorder');
    const environment = apiEnvironment(url.pathname) ?? defaultEnvironment;
    const authorization = request.headers.authorization;
    if (authorization !== undefined) await recordBalance(authorization, environment);
    const forward = endToEnd(Object.entries(request.headers), request.headers.connection);
    const id = `r${++requests}`;
    // 0: no answer (the connection failed, the client left); 504 and 502: the recorder's own, for a provider that took
    // too long or answered more than it holds, as a gateway answers them.
    let status = 0;
    let text = '';
    let retryAfter: string | null = null;
    let answerHeaders = new Headers();
    let ownAnswer = false;
    const wait = boundedWait(timeoutMs, response);
    try {
      const answer = await send(`${upstream}${url.pathname}${url.search}`, {
        method: request.method ?? 'GET',
        headers: [...forward],
        ...(body.length === 0 || request.method === 'GET' || request.method === 'HEAD' ? {} : { body }),
        redirect: 'manual',
        signal: wait.signal,
      });
      text = await readAnswer(answer, maxBody);
      status = answer.status;
      retryAfter = answer.headers.get('retry-after');
      answerHeaders = answer.headers;
    } catch (caught) {
      const error = failureOf(caught, wait.signal);
      ownAnswer = true;
      if (error instanceof TimedOut) status = 504;
      else if (error instanceof BodyTooLarge) status = 502;
      text = `the upstream ${upstream} did not answer: ${error.message}`;
    } finally {
      wait.done();
    }
    const requestText = body.toString('utf8');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers))
      if (keptHeaders.has(name) && typeof value === 'string') headers[name] = value;
    const answered = jsonOrText(text);
    const code = 'body' in answered ? errorCodeOf(answered.body) : undefined;
    if (headers.signature !== undefined)
      headers.signature = code === 'SIGNATURE_MISMATCH' ? '{{signature:invalid}}' : '{{signature}}';
    write({
      t: at,
      type: 'request',
      id,
      method: request.method ?? 'GET',
      path: url.pathname,
      ...(url.search === '' ? {} : { query: url.search.slice(1) }),
      environment,
      headers,
      ...jsonOrText(requestText),
    });
    write({ t: t(), type: 'answer', request: id, status, ...answered, ...(retryAfter === null ? {} : { retryAfter }) });
    if ('body' in answered && status === 201) {
      const message = answered.body as { id?: unknown; recipient?: unknown; client_reference?: unknown };
      if (typeof message.id === 'string' && Array.isArray(message.recipient))
        sent.push({ id: message.id, recipients: message.recipient.map(String), reference: message.client_reference });
    }
    if (ownAnswer) {
      response.writeHead(status === 0 ? 502 : status, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`sms-emulator record: ${text}\n`);
      return;
    }
    response.writeHead(status, Object.fromEntries(endToEnd(answerHeaders, answerHeaders.get('connection'))));
    response.end(text);
  }

  function signatureValid(body: Buffer, header: string | string[] | undefined): boolean | null {
    if (options.webhookSecret === undefined) return null;
    if (typeof header !== 'string') return false;
    const expected = createHmac('sha256', options.webhookSecret).update(body).digest('hex');
    return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
  }

  async function webhook(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A web page's post is never relayed to the app nor recorded: only the provider's servers post here.
    const reason = foreignOrigin(
      { url: url + (request.url ?? '/'), header: (name) => request.headers[name] as string | undefined },
      undefined,
    );
    if (reason !== undefined) {
      const words = `The recorder's webhook address refused this post because ${reason}: only the provider posts here (its servers send no Origin).`;
      return refuse(request, response, new ApiError('ORIGIN_NOT_ALLOWED', words));
    }
    const body = await readBody(request, maxBody);
    const text = body.toString('utf8');
    const parsed = jsonOrText(text);
    const payload = 'body' in parsed ? parsed.body : text;
    const header = request.headers['x-emulator-attempt'];
    const attempt =
      typeof header === 'string' && /^\d+$/.test(header) ? Number(header) : (unanswered.get(text) ?? 0) + 1;
    const reply = payload as { type?: unknown; recipient?: unknown; message?: unknown; client_reference?: unknown };
    if (reply?.type === 'sms-reply' && attempt === 1) {
      const from = Array.isArray(reply.recipient) ? String(reply.recipient[0]) : String(reply.recipient ?? '');
      const original =
        sent.findLast((message) => message.recipients.includes(from) && message.reference === reply.client_reference) ??
        sent.findLast((message) => message.recipients.includes(from));
      if (original !== undefined)
        write({ t: t(), type: 'reply', message: original.id, from, text: String(reply.message ?? '') });
    }
    const id = `w${++posts}`;
    write({
      t: t(),
      type: 'webhook',
      id,
      attempt,
      payload,
      signatureValid: signatureValid(body, request.headers['webhook-signature']),
    });
    let status: number | undefined;
    let error: string | undefined;
    if (options.relay === undefined) status = 200;
    else {
      const forward = endToEnd(Object.entries(request.headers), request.headers.connection);
      const wait = boundedWait(timeoutMs, response);
      try {
        const answer = await send(options.relay, { method: 'POST', headers: [...forward], body, signal: wait.signal });
        await readAnswer(answer, maxBody);
        status = answer.status;
      } catch (caught) {
        // fetch refuses a URL with credentials in words that quote it: the transcript and the answer show it masked.
        error = maskUrlsInText(failureOf(caught, wait.signal).message);
      } finally {
        wait.done();
      }
    }
    if (status === 200) unanswered.delete(text);
    else unanswered.set(text, attempt);
    write({
      t: t(),
      type: 'webhook-answer',
      webhook: id,
      ...(status === undefined ? {} : { status }),
      ...(error === undefined ? {} : { error }),
    });
    response.writeHead(status ?? 502, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(
      status === undefined
        ? `sms-emulator record: the receiver ${maskUrlCredentials(options.relay ?? '')} did not answer: ${error}\n`
        : '',
    );
  }

  const listenHost = options.host ?? '127.0.0.1';
  // The emulator's own Host check: a page on a DNS-rebinding name reaches neither the provider nor the app.
  const hosts = new HostCheck({ allowed: options.allowedHosts ?? [], listening: [listenHost], publicHost: undefined });
  let url = '';
  const listener = (request: IncomingMessage, response: ServerResponse): void => {
    const path = (request.url ?? '/').split('?')[0];
    const handle = path === recorderWebhookPath && request.method === 'POST' ? webhook : proxy;
    handle(request, response).catch((error: unknown) => {
      const status = error instanceof BodyTooLarge ? 413 : 500;
      // A body cut short is not read on: the connection closes with the answer.
      if (!response.headersSent)
        response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      response.end(`sms-emulator record: ${(error as Error).message}\n`);
    });
  };
  const server: Server = createServer(guardHost(listener, hosts, guardSettings, () => url));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, listenHost, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${host}:${address.port}`;
  own.ports.push(address.port);
  own.names.push(...ownNames(listenHost));
  let closing: Promise<void> | undefined;
  return {
    url,
    webhookUrl: `${url}${recorderWebhookPath}`,
    get events() {
      return events;
    },
    close() {
      // Once: a second close (a second signal, a caller's cleanup) waits for the first rather than write again.
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        // The header learns the references bound during the session: the replay needs their recorded values.
        const whole = `${options.out}.${process.pid}.tmp`;
        writeFileSync(
          whole,
          transcriptLine({ ...header, values: bindings.inputValues() }) + readFileSync(eventsFile, 'utf8'),
        );
        renameSync(whole, options.out);
        rmSync(eventsFile, { force: true });
      })();
      return closing;
    },
  };
}
