/** Local HTTP receivers for tests: record webhook posts and answer as told (any status, or never); one server can route many catchers by path. */

import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clearTimeout, setTimeout } from 'node:timers';

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

/** A status, a list answered in turn (the last one repeats), or a function of the request (an async one too, such as an app's handler). */
export type CatcherResponse = number | readonly number[] | ((request: CaughtRequest) => number | Promise<number>);

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
  const routes = new Map<string, (request: CaughtRequest, outgoing: ServerResponse) => void>();
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const path = incoming.url ?? '/';
      const route = routes.get(path.split('?')[0] ?? path);
      if (route === undefined) {
        outgoing.writeHead(404, { 'content-type': 'text/plain' }).end(`no webhook catcher at ${path}`);
        return;
      }
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown = rawBody;
      try {
        body = JSON.parse(rawBody);
      } catch {
        // not JSON: keep the text
      }
      const headers = Object.fromEntries(
        Object.entries(incoming.headers).map(([name, value]) => [name, String(value)]),
      );
      route({ method: incoming.method ?? 'GET', path, headers, body, rawBody, receivedAt: Date.now() }, outgoing);
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
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** The state of one catcher: what it received, who waits, how it answers. */
function routedCatcher(
  url: string,
  unroute: () => void,
): { catcher: WebhookCatcher; receive: (request: CaughtRequest, outgoing: ServerResponse) => void } {
  const received: CaughtRequest[] = [];
  const waiters = new Set<{
    predicate: (request: CaughtRequest) => boolean;
    resolve: (request: CaughtRequest) => void;
  }>();
  const hanging = new Set<ServerResponse>();
  let response: CatcherResponse = 200;
  let answered = 0;
  let hang = false;

  const statusFor = (request: CaughtRequest): number | Promise<number> => {
    if (typeof response === 'number') return response;
    if (typeof response === 'function') return response(request);
    return response[Math.min(answered, response.length - 1)] ?? 200;
  };
  const release = (): void => {
    for (const outgoing of hanging) if (!outgoing.destroyed) outgoing.writeHead(200).end('200');
    hanging.clear();
  };

  const receive = (request: CaughtRequest, outgoing: ServerResponse): void => {
    received.push(request);
    for (const waiter of waiters) {
      if (waiter.predicate(request)) {
        waiters.delete(waiter);
        waiter.resolve(request);
      }
    }
    if (hang) {
      hanging.add(outgoing);
      return;
    }
    // Chosen now (a list answers in arrival order), awaited after: an app's async handler may decide.
    let status: Promise<number>;
    try {
      status = Promise.resolve(statusFor(request));
    } catch (error) {
      status = Promise.reject(error as Error);
    }
    answered += 1;
    void answer(outgoing, status);
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
async function answer(outgoing: ServerResponse, chosen: Promise<number>): Promise<void> {
  let status: number;
  let text: string;
  try {
    status = await chosen;
    if (!Number.isInteger(status) || status < 100 || status > 599)
      throw new Error(`${status} is not an HTTP status (100 to 599)`);
    text = String(status);
  } catch (error) {
    status = 500;
    text = `respondWith failed: ${(error as Error).message}`;
  }
  if (!outgoing.destroyed) outgoing.writeHead(status, { 'content-type': 'text/plain' }).end(text);
}
