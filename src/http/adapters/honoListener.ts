/** The hono app as a Node request listener, through @hono/node-server: every request the fast lane does not take. */

import type { Hono } from 'hono';
import type { NodeListener } from './fastLane.js';

/** A Node listener for the hono app, handed to it whole, loading @hono/node-server on its first request. */
export function honoListener(app: Pick<Hono, 'fetch'>): NodeListener {
  // @hono/node-server is imported on the first request the fast lane does not take: evaluating it reads the global
  // Request and Response, which loads Node's fetch implementation (undici), the largest single cost of a start that
  // answers /v1 without them. Once loaded, requests are handed to it directly.
  let listener: NodeListener | undefined;
  let loading: Promise<NodeListener> | undefined;
  return (request, response) => {
    if (listener) return listener(request, response);
    loading ??= import('@hono/node-server').then(({ getRequestListener }) => {
      const serve = getRequestListener((request, env) => app.fetch(request, env));
      return (listener = (incoming, outgoing) => void serve(incoming, outgoing));
    });
    loading.then(
      (serve) => serve(request, response),
      (error: unknown) => {
        console.error('sms-emulator: cannot load the HTTP adapter', error);
        response.writeHead(500, { 'content-type': 'text/plain' }).end();
      },
    );
  };
}
