/** A request body's chunks as they arrive: from Node's own socket stream when the node listener serves the request. */

import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * The body's chunks, read as they are asked for. Over a socket, the node listener hands hono the request it read
 * (`c.env.incoming`), whose own iterator keeps Node's flow control (the socket is read only as fast as the chunks
 * are taken) without the web stream @hono/node-server would wrap around it; in process (`emulator.fetch`), the
 * request's web stream. Stopping early leaves the socket open, so a refusal is still answered on it.
 */
export function requestChunks(c: Context): AsyncIterable<Uint8Array> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming !== undefined) return { [Symbol.asyncIterator]: () => incoming.iterator({ destroyOnReturn: false }) };
  return webChunks(c.req.raw.body);
}

async function* webChunks(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) void reader.cancel().catch(() => undefined);
  }
}
