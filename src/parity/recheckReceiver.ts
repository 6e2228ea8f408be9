/**
 * Where a recheck hears the provider's webhooks: an HTTP listener that answers every post 200 and keeps its body and
 * when it came, untemplated (ids are learned from the answers first, so a post that beats its send's answer still
 * gets that send's placeholder).
 */

import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeardPost {
  /** Epoch ms it arrived. */
  at: number;
  body: string;
  /** The provider's own try count (`X-Emulator-Attempt`), when it sends one. */
  attempt?: number;
}

export interface RecheckReceiver {
  /** The address to give the provider as its webhook URL. */
  url: string;
  posts: HeardPost[];
  /** Resolves once `done` holds for the posts heard so far (asked again at each post), or at `deadlineMs` (epoch ms). */
  until(done: (posts: readonly HeardPost[]) => boolean, deadlineMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Listens on `port` (0: a free one) of `host` for the provider's webhooks. */
export async function startRecheckReceiver(port: number, host = '127.0.0.1'): Promise<RecheckReceiver> {
  const posts: HeardPost[] = [];
  const waiting = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const header = request.headers['x-emulator-attempt'];
      posts.push({
        at: Date.now(),
        body: Buffer.concat(chunks).toString('utf8'),
        ...(typeof header === 'string' && /^\d+$/.test(header) ? { attempt: Number(header) } : {}),
      });
      response.writeHead(200).end();
      for (const ask of [...waiting]) ask();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/`,
    posts,
    until: (done, deadlineMs) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => ask(true), Math.max(0, deadlineMs - Date.now()));
        function ask(late = false): void {
          if (!late && !done(posts)) return;
          clearTimeout(timer);
          waiting.delete(ask);
          resolve();
        }
        waiting.add(ask);
        ask();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
