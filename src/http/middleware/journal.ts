/**
 * Records every request hono answers outside the API (an unknown address, a refused body) in the request journal:
 * references on the way, rendering only when someone reads it. The API's own requests are journaled by its handler.
 */

import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { RequestJournal } from '../../journal/requestJournal.js';
import { journalBodyLimit } from '../../journal/requestJournal.js';
import type { Clock } from '../../state/clock.js';
import type { Store } from '../../state/store.js';
import { basicUsername } from './auth.js';

/** Requests to these are not API requests: the control API, its pages, and the landing redirect. */
const notJournaled = (path: string): boolean => path === '/' || path === '/_emulator' || path.startsWith('/_emulator/');

/** `clock` is the main clock: a request whose key names an account is timed on that account's clock instead. */
export function journalRequests(journal: RequestJournal, clock: Clock, store: Store): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path;
    if (!journal.enabled || notJournaled(path)) return next();
    const wallMs = Date.now();
    const account = basicUsername(c.req.header('authorization')) ?? null;
    const virtualMs = ((account === null ? undefined : store.accounts.get(account))?.clock ?? clock).now();
    const started = performance.now();
    let responseBody: string | null = null;
    // Keep the JSON text the route answers: it is serialised once anyway, so the journal costs no second pass.
    c.json = ((object: unknown, arg?: number | ResponseInit, headers?: Record<string, string>) => {
      responseBody = JSON.stringify(object);
      return c.body(responseBody, arg as ContentfulStatusCode, { 'Content-Type': 'application/json', ...headers });
    }) as unknown as typeof c.json;
    await next();
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    const url = c.req.url;
    const queryStart = url.indexOf('?');
    journal.record({
      wallMs,
      virtualMs,
      method: c.req.method,
      path,
      query: queryStart < 0 ? '' : url.slice(queryStart + 1),
      environment: path.startsWith('/sandbox/') ? 'sandbox' : 'live',
      account,
      status: c.res.status,
      requestBody: await journalBody(c),
      responseBody,
      durationMs,
    });
  };
}

/** The body the route read, or, for a request refused before its body was read, its first bytes. */
export async function journalBody(c: Context): Promise<Uint8Array | string | null> {
  const read = c.get('bodyBytes');
  if (read !== undefined) return read;
  const cache = c.req.bodyCache;
  try {
    const cached = cache.arrayBuffer ?? cache.text;
    if (cached !== undefined) {
      const value = await cached;
      return typeof value === 'string' ? value : new Uint8Array(value);
    }
    // A GET or HEAD has no body for the adapter either, and asking for `raw.body` makes @hono/node-server
    // build a full web Request around the socket: that was most of the CPU of a GET balance (bench, issue 11).
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return null;
    const stream = c.req.raw.body;
    if (stream === null) return null;
    if (c.req.raw.bodyUsed) return '(body not kept)';
    return await firstBytes(stream);
  } catch (error) {
    return `(body not readable: ${(error as Error).message})`;
  }
}

/** Reads at most one byte past the journal's limit (so a cut body is marked), then stops reading. */
async function firstBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size <= journalBodyLimit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks);
}
