/** Local HTTP receivers for tests: record webhook posts and answer as told (any status, or never); one server can route many catchers by path. */

import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clearTimeout, setTimeout } from 'node:timers';
import type { WebhookAnswer } from '../webhooks/transport.js';

export interface CaughtRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON, or the text when the body is not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read fields of arbitrary payloads
  body: any;
  rawBody: string;
  /** Wall-clock time it arrived (ms). */
  receivedAt: number;
}

/**
 * A status, a list answered in turn (the last one repeats), or a function of the request (an async one too, such as an
 * app's handler) answering a status, or a status and the body to answer with.
 */
export type CatcherResponse =
  number | readonly number[] | ((request: CaughtRequest) => number | WebhookAnswer | Promise<number | WebhookAnswer>);

export interface WebhookCatcher {
  /** The address to give an account as its webhook URL. */
  readonly url: string;
  /** Every request so far, in arrival order. */
  readonly received: readonly CaughtRequest[];
  /** How to answer from now on (default 200). */
  respondWith(response: CatcherResponse): void;
  /** Stops answering (requests hang until `hang(false)` or close), to test timeouts. */
  hang(hanging?: boolean): void;
  /** Resolves with the first request (already here or still to come) that matches; rejects after `timeoutMs`. */
  waitFor(predicate?: (request: CaughtRequest) => boolean, timeoutMs?: number): Promise<CaughtRequest>;
  /** Forgets what was received. */
  clear(): void;
  /** Stops receiving (its path answers 404 from then on; for `createWebhookCatcher`, the server closes). */
  close(): Promise<void>;
}

/** One loopback server that routes each request by its path to the catcher registered there (404 when none is). */
export interface CatcherServer {
  /** `http://host:port`. */
  readonly origin: string;
  /** A catcher receiving at `path` (e.g. `/webhooks/<account>`); its `url` is the origin plus that path. */
  catcher(path: string): WebhookCatcher;
  /**
   * Receives a post in this process as the server would over HTTP (routed by the URL's path; 404 where no catcher is):
   * what `emulator.receiveWebhooksLocally(server.origin, server.receive)` hands it, with no socket.
   */
  receive(delivery: { url: string; headers: Readonly<Record<string, string>>; body: string }): Promise<WebhookAnswer>;
  /** Closes the server and every connection (hanging answers included). */
  close(): Promise<void>;
}

/**
 * Starts a webhook receiver on a free loopback port.
 *
 * @example
 * const catcher = await createWebhookCatcher();
 * emulator.accounts.update('pk_test_sms_emulator', { live: { webhookUrl: catcher.url } });
 * const delivered = await catcher.waitFor((request) => request.body.status === 'delivered');
 */
export async function createWebhookCatcher(options: { host?: string; port?: number } = {}): Promise<WebhookCatcher> {
  const server = await createCatcherServer(options);
  return { ...server.catcher('/webhooks'), close: () => server.close() };
}

/**
 * Starts one receiver for many catchers, each at its own path: what the vitest fixture shares between the tests of a
 * worker, so a test costs a route instead of a server.
 *
 * @example
 * const server = await createCatcherServer();
 * const catcher = server.catcher(`/webhooks/${apiKey}`);
 */
export async function createCatcherServer(options: { host?: string; port?: number } = {}): Promise<CatcherServer> {
  const routes = new Map<string, (request: CaughtRequest) => Promise<Answer>>();
  /** The answer of the catcher at `path`, or 404 when none receives there. */
  const route = (method: string, path: string, headers: Record<string, string>, rawBody: string) => {
    const receive = routes.get(path.split('?')[0] ?? path);
    if (receive === undefined) return Promise.resolve({ status: 404, text: `no webhook catcher at ${path}` });
    let body: unknown = rawBody;
    try {
      body = JSON.parse(rawBody);
    } catch {
      // not JSON: keep the text
    }
    return receive({ method, path, headers, body, rawBody, receivedAt: Date.now() });
  };
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(incoming.headers).map(([name, value]) => [name, String(value)]),
      );
      const rawBody = Buffer.concat(chunks).toString('utf8');
      void route(incoming.method ?? 'GET', incoming.url ?? '/', headers, rawBody).then(({ status, text }) => {
        if (!outgoing.destroyed) outgoing.writeHead(status, { 'content-type': 'text/plain' }).end(text);
      });
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    catcher(path) {
      if (routes.has(path)) throw new Error(`sms-emulator: a webhook catcher already receives at ${path}.`);
      const catcher = routedCatcher(`${origin}${path}`, () => routes.delete(path));
      routes.set(path, catcher.receive);
      return catcher.catcher;
    },
    async receive({ url, headers, body }) {
      const { pathname, search } = new URL(url);
      const { status, text } = await route('POST', `${pathname}${search}`, { ...headers }, body);
      return { status, body: text };
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** How a catcher answers one request: a status and the text of the answer's body. */
interface Answer {
  status: number;
  text: string;
}

/** The state of one catcher: what it received, who waits, how it answers. */
function routedCatcher(
  url: string,
  unroute: () => void,
): { catcher: WebhookCatcher; receive: (request: CaughtRequest) => Promise<Answer> } {
  const received: CaughtRequest[] = [];
  const waiters = new Set<{
    predicate: (request: CaughtRequest) => boolean;
    resolve: (request: CaughtRequest) => void;
  }>();
  /** The answers held back while hanging: each is given 200 on release. */
  const hanging = new Set<(answer: Answer) => void>();
  let response: CatcherResponse = 200;
  let answered = 0;
  let hang = false;

  const statusFor = (request: CaughtRequest): number | WebhookAnswer | Promise<number | WebhookAnswer> => {
    if (typeof response === 'number') return response;
    if (typeof response === 'function') return response(request);
    return response[Math.min(answered, response.length - 1)] ?? 200;
  };
  const release = (): void => {
    for (const answerHeld of hanging) answerHeld({ status: 200, text: '200' });
    hanging.clear();
  };

  const receive = (request: CaughtRequest): Promise<Answer> => {
    received.push(request);
    for (const waiter of waiters) {
      if (waiter.predicate(request)) {
        waiters.delete(waiter);
        waiter.resolve(request);
      }
    }
    if (hang) return new Promise((resolve) => hanging.add(resolve));
    // Chosen now (a list answers in arrival order), awaited after: an app's async handler may decide.
    let status: Promise<number | WebhookAnswer>;
    try {
      status = Promise.resolve(statusFor(request));
    } catch (error) {
      status = Promise.reject(error as Error);
    }
    answered += 1;
    return answer(status);
  };

  const catcher: WebhookCatcher = {
    url,
    received,
    respondWith(next) {
      response = next;
      answered = 0;
    },
    hang(on = true) {
      hang = on;
      if (!on) release();
    },
    waitFor(predicate = () => true, timeoutMs = 5_000) {
      const found = received.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (request: CaughtRequest) => {
            clearTimeout(timer);
            resolve(request);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(
              `sms-emulator: webhook catcher: no matching request within ${timeoutMs} ms (${received.length} received).`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    clear() {
      received.length = 0;
    },
    async close() {
      unroute();
      hang = false;
      release();
    },
  };
  return { catcher, receive };
}

/** A response function that throws or gives no status answers 500 saying why: an exception here would end the test process. */
async function answer(chosen: Promise<number | WebhookAnswer>): Promise<Answer> {
  try {
    const given = await chosen;
    const status = typeof given === 'number' ? given : given?.status;
    if (!Number.isInteger(status) || status < 100 || status > 599)
      throw new Error(`${status} is not an HTTP status (100 to 599)`);
    return { status, text: typeof given === 'number' ? String(status) : (given.body ?? String(status)) };
  } catch (error) {
    return { status: 500, text: `respondWith failed: ${(error as Error).message}` };
  }
}
