/**
 * The recording proxy: an app points its base URL at it and its provider's webhooks at its webhook address; it forwards
 * every request to the provider with the app's own key and headers, relays every webhook to the app's receiver, and
 * writes each request, answer, webhook, receiver answer and inbound reply to a transcript as it happens.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiEnvironment, apiPrefixes, defaultEnvironment, type Environment } from '../domain/environment.js';
import { apiOperations } from '../domain/apiOperations.js';
import { maskUrlCredentials, maskUrlsInText } from '../domain/credentials.js';
import { Bindings } from './bindings.js';
import { basicKey, templateEvent } from './emulatorTranscript.js';
import { type TranscriptEvent, type TranscriptHeader, transcriptLine, transcriptVersion } from './transcript.js';

/** The path of the recorder's own webhook address: the provider posts here, the recorder relays to the app. */
export const recorderWebhookPath = '/_record/webhook';

/** Request headers a transcript keeps: the rest (host, lengths, agents, connection) says nothing about the API. */
const keptHeaders = new Set(['authorization', 'signature', 'content-type', 'x-emulator-outcome']);
/** Headers never passed on: they describe one hop, not the message. */
const hopHeaders = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'accept-encoding',
  'content-encoding',
  'upgrade',
  'proxy-connection',
]);

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
}

export interface Recorder {
  /** The base URL the app uses instead of the provider's. */
  readonly url: string;
  /** The webhook URL to give the provider instead of the app's. */
  readonly webhookUrl: string;
  /** How many events were written so far. */
  readonly events: number;
  /** Stops accepting requests, waits for those under way, and completes the transcript's header. */
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function jsonOrText(text: string): { body: unknown } | { bodyText: string } | Record<string, never> {
  if (text === '') return {};
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
  writeFileSync(options.out, transcriptLine(header));
  let events = 0;
  let requests = 0;
  let posts = 0;
  const write = (event: TranscriptEvent): void => {
    appendFileSync(options.out, transcriptLine(templateEvent(event, bindings)));
    events += 1;
  };
  const t = (): number => Math.max(0, now() - startMs);
  const balancesSeen = new Set<string>();
  const sent: Sent[] = [];
  const unanswered = new Map<string, number>();

  /** Before a key's first request in an environment, its balance then: the replay starts from it. */
  async function recordBalance(authorization: string, environment: Environment): Promise<void> {
    const key = `${environment} ${authorization}`;
    if (balancesSeen.has(key) || basicKey(authorization) === undefined) return;
    balancesSeen.add(key);
    try {
      const path = `${apiPrefixes[environment]}${apiOperations.balance.path}`;
      const answer = await fetch(`${upstream}${path}`, { headers: { authorization } });
      const body = (await answer.json()) as { balance?: unknown };
      if (answer.ok && typeof body.balance === 'number')
        write({ t: t(), type: 'account', environment, balance: body.balance });
    } catch {
      // No balance, no account line: the replay then starts from the emulator's default balance.
    }
  }

  async function proxy(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const at = t();
    const url = new URL(request.url ?? '/', 'http://recorder');
    const environment = apiEnvironment(url.pathname) ?? defaultEnvironment;
    const authorization = request.headers.authorization;
    if (authorization !== undefined) await recordBalance(authorization, environment);
    const forward = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (!hopHeaders.has(name) && typeof value === 'string') forward.set(name, value);
    const id = `r${++requests}`;
    let status = 0;
    let text = '';
    let retryAfter: string | null = null;
    let answerHeaders = new Headers();
    try {
      const answer = await fetch(`${upstream}${url.pathname}${url.search}`, {
        method: request.method ?? 'GET',
        headers: forward,
        ...(body.length === 0 || request.method === 'GET' || request.method === 'HEAD' ? {} : { body }),
        redirect: 'manual',
      });
      status = answer.status;
      text = await answer.text();
      retryAfter = answer.headers.get('retry-after');
      answerHeaders = answer.headers;
    } catch (error) {
      text = `the upstream ${upstream} did not answer: ${(error as Error).message}`;
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
    if (status === 0) {
      response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`sms-emulator record: ${text}\n`);
      return;
    }
    const back: Record<string, string> = {};
    answerHeaders.forEach((value, name) => {
      if (!hopHeaders.has(name)) back[name] = value;
    });
    response.writeHead(status, back);
    response.end(text);
  }

  function signatureValid(body: Buffer, header: string | string[] | undefined): boolean | null {
    if (options.webhookSecret === undefined) return null;
    if (typeof header !== 'string') return false;
    const expected = createHmac('sha256', options.webhookSecret).update(body).digest('hex');
    return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
  }

  async function webhook(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
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
      const forward = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        if (!hopHeaders.has(name) && typeof value === 'string') forward.set(name, value);
      try {
        const answer = await fetch(options.relay, { method: 'POST', headers: forward, body });
        status = answer.status;
        await answer.arrayBuffer();
      } catch (caught) {
        // fetch refuses a URL with credentials in words that quote it: the transcript and the answer show it masked.
        error = maskUrlsInText((caught as Error).message);
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

  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const handle = path === recorderWebhookPath && request.method === 'POST' ? webhook : proxy;
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`sms-emulator record: ${(error as Error).message}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    webhookUrl: `${url}${recorderWebhookPath}`,
    get events() {
      return events;
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      // The header learns the references bound during the session: the replay needs their recorded values.
      const text = readFileSync(options.out, 'utf8');
      const rest = text.slice(text.indexOf('\n') + 1);
      writeFileSync(options.out, transcriptLine({ ...header, values: bindings.inputValues() }) + rest);
    },
  };
}
