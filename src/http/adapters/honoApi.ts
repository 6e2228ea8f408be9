/** Serves the API handler inside the hono app (`emulator.fetch`, and the node listener's fallback): hono's request as a record, the answer as a response. */

import type { Context, Handler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiRequest } from '../apiExchange.js';
import type { ApiHandler } from '../apiHandler.js';
import { readBody } from '../body.js';
import { journalBodyLimit } from '../../journal/requestJournal.js';

export function honoApi(handler: ApiHandler): Handler {
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
    // hono itself leaves the body out for a HEAD.
    return c.body(answer.body, answer.status as ContentfulStatusCode, { 'Content-Type': 'application/json', ...answer.headers });
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
