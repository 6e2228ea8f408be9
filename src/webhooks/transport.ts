/**
 * One webhook try over node:http(s) through keep-alive agents, with a timer that covers the whole
 * try (connect, headers and body) and cannot be lost.
 *
 * Why not `fetch`: on Node 20 a fetch whose signal is `AbortSignal.any([AbortSignal.timeout(ms), …])`
 * is never aborted once a garbage collection runs before the timeout (nodejs/node#55428,
 * nodejs/undici#4068) and each combined signal leaks (nodejs/node#55351). A plain timer held by the
 * try itself has neither problem, and a keep-alive agent reuses connections for throughput.
 */

import { Agent as HttpAgent, type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
// node:timers, so a host test runner that fakes the global timers cannot stall a try.
import { clearTimeout, setTimeout } from 'node:timers';

/** How a try ended: the receiver's status once its whole answer arrived, or why there was none. */
export type TryResult = { status: number } | { error: string };

/** Connections kept open per receiver; more tries to one receiver wait for a free one (inside their timeout). */
const socketsPerReceiver = 256;

export class WebhookTransport {
  private readonly httpAgent = new HttpAgent({ keepAlive: true, maxSockets: socketsPerReceiver });
  /** node:https (and TLS with it) is loaded on the first https receiver: most runs never have one, and it costs start-up time. */
  private httpsAgent: HttpsAgent | undefined;
  /** Tries under way, each with the function that ends it; close() ends them all. */
  private readonly underWay = new Map<ClientRequest, (result: TryResult) => void>();
  private closed = false;

  get isClosed(): boolean {
    return this.closed;
  }

  /** POSTs `body` to `url`; resolves (never rejects) once the answer is complete, or fails after `timeoutMs`. */
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<TryResult> {
    if (this.closed) return Promise.resolve({ error: 'emulator closed' });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve({ error: `not a URL: ${url}` });
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.resolve({ error: `unsupported protocol ${target.protocol}` });
    const https = target.protocol === 'https:' ? process.getBuiltinModule('node:https') : undefined;
    const send = https ? https.request : httpRequest;
    const agent = https ? (this.httpsAgent ??= new https.Agent({ keepAlive: true, maxSockets: socketsPerReceiver })) : this.httpAgent;
    return new Promise((resolve) => {
      const request = send(target, {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      });
      const finish = (result: TryResult): void => {
        if (!this.underWay.delete(request)) return;
        clearTimeout(timer);
        // A try that did not end with a complete answer leaves its connection in an unknown state.
        if ('error' in result) request.destroy();
        resolve(result);
      };
      const timer = setTimeout(() => finish({ error: `timeout after ${timeoutMs} ms` }), timeoutMs);
      this.underWay.set(request, finish);
      let answering = false;
      request.on('response', (response: IncomingMessage) => {
        answering = true;
        response.on('data', () => undefined); // read and drop the body, so the connection can be reused
        response.on('end', () => finish({ status: response.statusCode ?? 0 }));
        response.on('error', () => finish({ error: 'connection closed mid-response' }));
        response.on('close', () => finish({ error: 'connection closed mid-response' }));
      });
      request.on('error', (error: NodeJS.ErrnoException) =>
        finish({ error: answering ? 'connection closed mid-response' : error.code ? `${error.code}: ${error.message}` : error.message }),
      );
      request.on('close', () => {
        if (!answering) finish({ error: 'connection closed before an answer' });
      });
      request.end(body);
    });
  }

  /** Ends every try under way (as "emulator closed"), refuses new ones and closes kept-alive connections. */
  close(): void {
    this.closed = true;
    for (const finish of [...this.underWay.values()]) finish({ error: 'emulator closed' });
    this.httpAgent.destroy();
    this.httpsAgent?.destroy();
  }
}
