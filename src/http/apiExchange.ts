/**
 * The API's request and answer as plain records: the /v1 and /sandbox/v1 handlers are functions of these,
 * so the same code serves hono (`emulator.fetch`, the fallback listener) and the node fast lane.
 */

import type { NetworkFailure } from '../engine/scenario/networkFaults.js';
import type { RequestHead } from './context.js';

export interface ApiRequest extends RequestHead {
  /** As received: a HEAD is served by the GET route and answered without a body. */
  readonly method: string;
  /** The path as hono routes it: percent-decoded, one trailing slash dropped. */
  readonly path: string;
  /** The query string without `?`, or ''. */
  readonly query: string;
  /** Decoded query parameters (the first value of a repeated one), as hono's `c.req.query()`. */
  queryParams(): Record<string, string>;
  /** The body, refused with PAYLOAD_TOO_LARGE past `maxBytes`; at once when it has already arrived (the fast lane's). */
  body(maxBytes: number): Uint8Array | Promise<Uint8Array>;
  /** For the journal: the body body() read, else the first bytes of one nobody read (or a note why there is none); asked only when `journalKeepsBody`. */
  journalBody(): JournalBody | Promise<JournalBody>;
}

export type JournalBody = Uint8Array | string | null;

/**
 * Handlers answer at once when nothing makes them wait (a body still arriving, injected latency): on the hot
 * routes a promise per step was a measurable share of a request's CPU (docs/decisions/0001-fast-lane.md).
 */
export type Answering = ApiAnswer | Promise<ApiAnswer>;

/** An answer: always JSON; the HTTP layer leaves the body out for a HEAD. */
export interface ApiAnswer {
  status: number;
  /** JSON text. */
  body: string;
  /** Headers besides Content-Type (WWW-Authenticate, Allow, Retry-After, …); a network fault's HTML page sets its own Content-Type. */
  headers?: Readonly<Record<string, string>>;
  /** A network fault: the transport fails this way instead of (or while) sending the answer. */
  network?: NetworkFailure;
}
