/** The API's answer to a request a network fault hits: handled first or not, marked for the transport to fail it. */

import { type NetworkFailure, handledBeforeFailing } from '../engine/scenario/networkFaults.js';
import type { Answering } from './apiExchange.js';

/** What a proxy in front of an unreachable service sends (nginx's page, as clients meet it). */
const proxyErrorPage =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/**
 * `serve` runs the route: only for the kinds that fail after the request was handled (a send stored and charged).
 * The others never reach the route, so nothing is stored or charged; a reset or hang-up has no HTTP status (0).
 */
export function networkAnswer(network: NetworkFailure, serve: () => Answering): Answering {
  if (handledBeforeFailing[network.kind]) {
    const answer = serve();
    return answer instanceof Promise ? answer.then((served) => ({ ...served, network })) : { ...answer, network };
  }
  if (network.kind === 'html')
    return { status: 502, body: proxyErrorPage, headers: { 'Content-Type': 'text/html' }, network };
  return { status: 0, body: '', network };
}

/** A body cut in pieces for slow-body (at most 10, so a long trickle is a few writes), and the wait between them. */
export function trickle(body: Uint8Array, trickleMs: number): { pieces: Uint8Array[]; everyMs: number } {
  const count = Math.max(1, Math.min(10, body.byteLength));
  const size = Math.ceil(body.byteLength / count);
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < body.byteLength; at += size) pieces.push(body.subarray(at, at + size));
  return { pieces, everyMs: trickleMs / Math.max(1, pieces.length) };
}

/** The first half of the body a truncated answer sends before the connection closes. */
export function firstHalf(body: Uint8Array): Uint8Array {
  return body.subarray(0, Math.floor(body.byteLength / 2));
}

/** Thrown inside the hono app for a fault without a socket to fail (`emulator.fetch`); the app lets it through as fetch's own failure. */
export class TransportFailure extends TypeError {
  constructor(network: NetworkFailure) {
    // As Node's fetch (undici) fails: "fetch failed", the socket's error as the cause.
    const cause =
      network.kind === 'hang-up'
        ? Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })
        : Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    super('fetch failed', { cause });
    this.name = 'TypeError';
  }
}
