/**
 * The node fast lane: serves the API (/v1, /sandbox/v1) straight from Node's IncomingMessage and ServerResponse.
 *
 * Why it leaves hono here: @hono/node-server turns every request into a web Request and every answer back from a
 * Response, which cost about as much CPU as the whole API work of a balance read or a send (bare hono reached 0.71× /
 * 0.62× of bare node:http; the decision and its figures: docs/decisions/0001-fast-lane.md). The API itself is one
 * handler of plain request records (apiHandler.ts), still routed by hono's router, and hono serves the same handler for
 * everything else (`emulator.fetch`). This lane takes only requests whose reading is unambiguous; anything unusual (a
 * target or Host that @hono/node-server would normalise, repeated headers, a chunked or oversized body, a rare method)
 * falls through to the hono app, so both ways answer alike.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { getQueryParam } from 'hono/utils/url';
import type { ApiAnswer, ApiRequest } from '../apiExchange.js';
import { apiEnvironment } from '../../domain/environment.js';
import type { ApiHandler } from '../apiHandler.js';
import { joinChunks } from '../body.js';
import type { WallTimers } from '../../state/wallTimers.js';
import { answerableError, errorAnswer, type ResponseSettings } from '../respond.js';
import { answerHeaders, failOnSocket } from './socketFault.js';

export type NodeListener = (request: IncomingMessage, response: ServerResponse) => void;

// @hono/node-server takes a target and a Host that match these as they are (its url.ts); others it parses with
// new URL, which may normalise them, so those fall through to it.
const plainTarget = /^\/[!#$&-;=?-[\]_a-z~]*$/;
const dotSegment = /\/\.\.?(?:[/?#]|$)/;
const plainHost = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
const laneMethods = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS']);

/** One request of the lane as the API handler reads it; the body has been read whole before it is handed over. */
class NodeApiRequest implements ApiRequest {
  readonly path: string;
  readonly query: string;

  constructor(
    readonly method: string,
    readonly url: string,
    target: string,
    private readonly headers: IncomingMessage['headers'],
    private readonly bytes: Uint8Array | null,
  ) {
    const queryStart = target.indexOf('?');
    const path = queryStart < 0 ? target : target.slice(0, queryStart);
    // hono's strict: false drops one trailing slash.
    this.path = path.length > 1 && path.charCodeAt(path.length - 1) === 0x2f ? path.slice(0, -1) : path;
    this.query = queryStart < 0 ? '' : target.slice(queryStart + 1);
  }

  header(name: string): string | undefined {
    return this.headers[name] as string | undefined;
  }

  queryParams(): Record<string, string> {
    return getQueryParam(this.url) as Record<string, string>;
  }

  body(): Uint8Array {
    // The lane only takes bodies within the limit (checked by their Content-Length).
    return this.bytes ?? new Uint8Array(0);
  }

  journalBody(): Uint8Array | null {
    return this.bytes;
  }
}

/**
 * Whether @hono/node-server takes this request target and Host as they are, building its URL as `scheme://host + target`
 * (test/http/laneUrlRules.test.ts holds this to the pinned version's rules).
 */
export function readAsIs(target: string, host: string): boolean {
  return plainTarget.test(target) && !dotSegment.test(target) && plainHost.test(host);
}

/** Whether the lane can read `incoming` exactly as @hono/node-server would; `maxBodySize` bounds the bodies it buffers. */
function inLane(incoming: IncomingMessage, target: string, maxBodySize: number): boolean {
  if (apiEnvironment(target) === undefined) return false;
  if (!laneMethods.has(incoming.method as string)) return false;
  const headers = incoming.headers;
  const host = headers.host;
  if (host === undefined || !readAsIs(target, host)) return false;
  if (headers['transfer-encoding'] !== undefined) return false;
  const length = headers['content-length'];
  if (length !== undefined && !(Number(length) <= maxBodySize)) return false;
  // Node keeps only the first of some repeated headers (Authorization among them) where a web Request joins them all.
  let names = 0;
  for (const _ in headers) names += 1;
  return names * 2 === incoming.rawHeaders.length;
}

function write(outgoing: ServerResponse, method: string, answer: ApiAnswer, wallTimers: WallTimers): void {
  // A proxy's HTML page (network: html) is an ordinary answer; the other network faults fail the socket.
  if (answer.network !== undefined && answer.network.kind !== 'html')
    return failOnSocket(outgoing, method, { ...answer, network: answer.network }, wallTimers);
  if (method === 'HEAD') {
    // As hono answers a HEAD: the GET's status and headers, no body and so no length.
    outgoing.writeHead(answer.status, answerHeaders(answer)).end();
    return;
  }
  outgoing.writeHead(answer.status, answerHeaders(answer, Buffer.byteLength(answer.body))).end(answer.body);
}

/**
 * The API's handler, the body size the lane may buffer, the timers a slow body trickles on, and how error bodies are
 * written (a defect is answered from the catalogue, as hono's error handler answers it).
 */
export interface Lane {
  handler: ApiHandler;
  maxBodySize: number;
  wallTimers: WallTimers;
  settings: ResponseSettings;
}

export function fastLane({ handler, maxBodySize, wallTimers, settings }: Lane, fallback: NodeListener): NodeListener {
  const serve = (incoming: IncomingMessage, outgoing: ServerResponse, target: string, bytes: Uint8Array | null) => {
    const method = incoming.method as string;
    const scheme = (incoming.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    const request = new NodeApiRequest(
      method,
      `${scheme}://${incoming.headers.host}${target}`,
      target,
      incoming.headers,
      bytes,
    );
    const failed = (error: unknown) => {
      // The handler answers every failure of a route itself; this is a defect outside them (the journal, the store
      // read before routing, writing the answer), answered as hono's error handler answers it, while it still can.
      const answer = errorAnswer(request, answerableError(error, method, request.path), settings);
      if (outgoing.headersSent) return void outgoing.end();
      try {
        write(outgoing, method, answer, wallTimers);
      } catch {
        // Writing itself is what failed: a throw here would escape the listener and end the process.
        outgoing.destroy();
      }
    };
    try {
      const answer = handler(request);
      if (answer instanceof Promise) answer.then((answered) => write(outgoing, method, answered, wallTimers), failed);
      else write(outgoing, method, answer, wallTimers);
    } catch (error) {
      failed(error);
    }
  };
  return (incoming, outgoing) => {
    const target = incoming.url ?? '';
    if (!inLane(incoming, target, maxBodySize)) return fallback(incoming, outgoing);
    const length = incoming.headers['content-length'];
    if (length === undefined || length === '0') return serve(incoming, outgoing, target, null);
    // Node hands each body chunk over in a buffer of its own, exactly its size, so the journal may keep it as it is.
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
    });
    incoming.on('end', () => serve(incoming, outgoing, target, joinChunks(chunks, size)));
  };
}
