/** Serves the API handler inside the hono app (`emulator.fetch`, and the node listener's fallback): hono's request as a record, the answer as a response. */

import type { Context, Handler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ServerResponse } from 'node:http';
import { handledBeforeFailing } from '../../engine/scenario/networkFaults.js';
import type { ApiAnswer, ApiRequest } from '../apiExchange.js';
import type { ApiHandler } from '../apiHandler.js';
import { journalBody, readBody } from '../body.js';
import { TransportFailure, firstHalf, trickle } from '../networkAnswer.js';
import type { WallTimers } from '../../state/wallTimers.js';
import { answerHeaders, failOnSocket } from './socketFault.js';

export function honoApi(handler: ApiHandler, wallTimers: WallTimers): Handler {
  return async (c) => {
    const url = c.req.url;
    const queryStart = url.indexOf('?');
    const request: ApiRequest = {
      method: c.req.method,
      path: c.req.path,
      url,
      query: queryStart < 0 ? '' : url.slice(queryStart + 1),
      header: (name) => c.req.header(name),
      queryParams: () => c.req.query(),
      body: (maxBytes) => readBody(c, maxBytes),
      journalBody: () => journalBody(c),
    };
    const answer = await handler(request);
    // A proxy's HTML page (network: html) is an ordinary answer; the other network faults fail the transport.
    if (answer.network !== undefined && answer.network.kind !== 'html')
      return failTransport(c, { ...answer, network: answer.network }, wallTimers);
    // hono itself leaves the body out for a HEAD.
    return c.body(answer.body, answer.status as ContentfulStatusCode, {
      'Content-Type': 'application/json',
      ...answer.headers,
    });
  };
}

/** Tells @hono/node-server that the answer was written (or withheld) on the socket already (its RESPONSE_ALREADY_SENT). */
const alreadySent = { 'x-hono-already-sent': 'true' };

/**
 * Behind the node listener the socket itself fails, as on the fast lane. Without one (`emulator.fetch`) the fault
 * shows as Node's fetch shows it: a reset or hang-up rejects with `TypeError: fetch failed`, a truncated body
 * errors half way (`TypeError: terminated`), a slow body arrives in pieces.
 */
function failTransport(
  c: Context,
  answer: ApiAnswer & Required<Pick<ApiAnswer, 'network'>>,
  wallTimers: WallTimers,
): Response {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing !== undefined) {
    failOnSocket(outgoing, c.req.method, answer, wallTimers);
    const sent = new Response(null, { headers: alreadySent });
    // @hono/node-server's own Response class writes a plain one from a cache that skips that header; reading a
    // property makes it a standard Response, which the adapter leaves alone.
    void sent.type;
    return sent;
  }
  const { kind, trickleMs } = answer.network;
  if (!handledBeforeFailing[kind] || kind === 'reset-after-handling') throw new TransportFailure(answer.network);
  const full = new TextEncoder().encode(answer.body);
  const body = c.req.method === 'HEAD' ? new Uint8Array(0) : full;
  const headers = answerHeaders(answer, c.req.method === 'HEAD' ? undefined : full.byteLength) as Record<
    string,
    string
  >;
  const { pieces, everyMs } =
    kind === 'truncated' ? { pieces: [firstHalf(body)], everyMs: 0 } : trickle(body, trickleMs);
  let index = 0;
  // A reader that cancels (its client left) ends the wait for the next piece: no timer stays armed for it.
  let cancelWait: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index > 0) await new Promise<void>((resolve) => (cancelWait = wallTimers.after(everyMs, resolve)));
      if (index < pieces.length) controller.enqueue(pieces[index++] as Uint8Array);
      else if (kind === 'truncated')
        controller.error(new TypeError('terminated', { cause: new Error('other side closed') }));
      else controller.close();
    },
    cancel() {
      cancelWait?.();
    },
  });
  return new Response(stream, { status: answer.status, headers });
}
