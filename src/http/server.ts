/** The module that touches sockets: the emulator's Node request listener (both adapters), listen and close. */

import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { isWildcard } from '../domain/hostNames.js';
import { ownName } from '../domain/ownAddress.js';
import type { Hono } from 'hono';
import { type Lane, type NodeListener, fastLane } from './adapters/fastLane.js';
import { honoListener } from './adapters/honoListener.js';

export type { NodeListener };

/** A Node listener for the hono app, handed to it; with `api`, the API's plain requests take the fast lane instead. */
export function nodeListener(app: Pick<Hono, 'fetch'>, api?: Lane): NodeListener {
  const fallback = honoListener(app);
  return api === undefined ? fallback : fastLane(api, fallback);
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

/**
 * The names and addresses a server listening on `host` is reached by besides loopback ones, as `OwnAddresses.names`
 * holds them: the machine's name, `host` itself, and on every interface (`0.0.0.0`, `::`) each interface's address.
 */
export function ownNames(host: string): string[] {
  const names = [hostname(), host];
  if (isWildcard(host))
    for (const addresses of Object.values(networkInterfaces()))
      for (const { address } of addresses ?? []) names.push(address);
  return [...new Set(names.map(ownName))];
}
