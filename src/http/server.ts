/** The only module that touches sockets: a Node request listener for the app, listen and close. */

import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiHandler } from './apiHandler.js';
import type { WallTimers } from '../state/wallTimers.js';
import { type NodeListener, fastLane } from './adapters/fastLane.js';

export type { NodeListener };

/** The API's handler for the fast lane, the body size it may buffer, and the timers a slow body trickles on. */
export interface LaneApi {
  handler: ApiHandler;
  maxBodySize: number;
  wallTimers: WallTimers;
}

/** A Node listener for `fetch` (the hono app); with `api`, the API's plain requests take the fast lane instead. */
export function nodeListener(
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>,
  api?: LaneApi,
): NodeListener {
  // @hono/node-server is imported on the first request the fast lane does not take: evaluating it reads the global
  // Request and Response, which loads Node's fetch implementation (undici), the largest single cost of a start that
  // answers /v1 without them. Once loaded, requests are handed to it directly.
  let listener: NodeListener | undefined;
  let loading: Promise<NodeListener> | undefined;
  const fallback: NodeListener = (request, response) => {
    if (listener) return listener(request, response);
    loading ??= import('@hono/node-server').then(({ getRequestListener }) => {
      const serve = getRequestListener(fetch);
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
  return api === undefined ? fallback : fastLane(api.handler, api.maxBodySize, fallback, api.wallTimers);
}

export interface Listening {
  port: number;
  host: string;
  close(): Promise<void>;
}

/** Listens on `host:port` (0 = a free port), over HTTPS when given a certificate and key; rejects with a clear message when the port is taken. */
export function listen(
  listener: NodeListener,
  host: string,
  port: number,
  tls?: { cert: string; key: string },
): Promise<Listening> {
  // node:https (and TLS with it) is loaded only when serving TLS: it is start-up time every other run would pay.
  const server: Server = tls
    ? process.getBuiltinModule('node:https').createServer({ cert: tls.cert, key: tls.key }, listener)
    : createServer(listener);
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use; choose another with --port (0 picks a free one)`
          : error.code === 'EACCES'
            ? `no permission to listen on ${host}:${port}`
            : error.message;
      reject(new Error(`sms-emulator: cannot listen: ${reason}.`, { cause: error }));
    });
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      resolve({ port: address.port, host, close: () => closeServer(server) });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    // In-flight requests get a moment; anything still open after that is cut.
    setTimeout(() => server.closeAllConnections(), 1_000).unref();
  });
}
