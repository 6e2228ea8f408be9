/**
 * keepAliveHttp: a test process's calls to one emulator process, over connections kept alive between calls.
 *
 * Why not Node's global fetch: a process-mode test makes three calls of its own on its way (its world, the send, the
 * wait), and on Node 20 each fetch costs about 0.1 to 0.3 ms more than the same request through `node:http` with a
 * keep-alive agent (its Request, Response and WHATWG streams): a share of a process-mode test's cost beside msw's
 * (bench/RESULTS.md, "Vitest fixture"). Why not undici's pool: as quick a call, but loading it costs a worker about
 * 75 ms, and `node:http` is loaded already. An idle kept-alive socket holds no reference that keeps the process alive.
 */

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** One answer, read whole. */
export interface KeepAliveAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export interface KeepAliveHttp {
  /** Sends one request to `path` (with its query) on the origin and reads the answer whole. */
  request(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal?: AbortSignal,
  ): Promise<KeepAliveAnswer>;
  /** The same, in fetch's shape, for a client that takes a fetch (requests to other origins go to the global fetch). */
  fetch(request: Request): Promise<Response>;
}

const byOrigin = new Map<string, KeepAliveHttp>();

/** The connections of an origin, one set per process: every file and handle of a worker shares them. */
export function keepAliveHttp(origin: string): KeepAliveHttp {
  let http = byOrigin.get(origin);
  if (http === undefined) {
    http = openConnections(origin);
    byOrigin.set(origin, http);
  }
  return http;
}

function openConnections(origin: string): KeepAliveHttp {
  const url = new URL(origin);
  const secure = url.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  /**
   * One try. A kept-alive socket the emulator closed while it sat idle (its keepAliveTimeout, 5 s) fails the next
   * request sent on it before any answer, as a reset: that request never reached the emulator, so it is sent once more
   * on a fresh connection. A request that failed on a fresh socket, or after its answer began, is not.
   */
  const attempt = (
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
    retried: boolean,
  ): Promise<KeepAliveAnswer> =>
    new Promise((resolve, reject) => {
      let began = false;
      const outgoing = send(
        { protocol: url.protocol, hostname: url.hostname, port: url.port, path, method, headers, agent, signal },
        (answer: IncomingMessage) => {
          began = true;
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('error', reject);
          answer.on('end', () => {
            const answered = new Headers();
            for (let index = 0; index < answer.rawHeaders.length; index += 2)
              answered.append(answer.rawHeaders[index] ?? '', answer.rawHeaders[index + 1] ?? '');
            resolve({
              status: answer.statusCode ?? 0,
              headers: answered,
              text: Buffer.concat(chunks).toString('utf8'),
            });
          });
        },
      );
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        const closedWhileIdle =
          outgoing.reusedSocket && !began && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
        if (closedWhileIdle && !retried && signal?.aborted !== true)
          resolve(attempt(method, path, headers, body, signal, true));
        else reject(error);
      });
      outgoing.end(body);
    });
  const request: KeepAliveHttp['request'] = (method, path, headers, body, signal) =>
    attempt(method, path, headers, body, signal, false);
  return {
    request,
    async fetch(outgoing) {
      const target = new URL(outgoing.url);
      if (target.origin !== url.origin) return fetch(outgoing);
      const headers: Record<string, string> = {};
      outgoing.headers.forEach((value, name) => (headers[name] = value));
      const body = outgoing.body === null ? undefined : await outgoing.text();
      const {
        status,
        headers: answered,
        text,
      } = await request(outgoing.method, target.pathname + target.search, headers, body, outgoing.signal);
      // A Response may carry no body with these statuses.
      const empty = status === 204 || status === 205 || status === 304;
      return new Response(empty ? null : text, { status, headers: answered });
    },
  };
}
