/** The emulator's two request paths, for suites that must answer alike through both: hono's (`emulator.fetch`) and the node listener's (a real socket, where the fast lane takes the API). */

import { request as httpRequest } from 'node:http';
import type { Emulator } from '../../src/index.js';

export const requestPaths = ['hono', 'node'] as const;
export type RequestPath = (typeof requestPaths)[number];

const listening = new Set<Emulator>();

/**
 * Sends `request` through `path`. Over the node path the emulator listens on port 0 (once), and the request keeps its
 * own Host (`emulator.test`), so links and the journal read exactly as through `emulator.fetch`.
 */
export async function fetchThrough(path: RequestPath, emulator: Emulator, request: Request): Promise<Response> {
  if (path === 'hono') return emulator.fetch(request);
  listening.add(emulator);
  const { port } = emulator.urls ?? (await emulator.listen({ port: 0, host: '127.0.0.1' }));
  const url = new URL(request.url);
  const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  const headers: Record<string, string> = { host: url.host };
  request.headers.forEach((value, name) => (headers[name] = value));
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    // A connection of its own: the server may close one after an answer given before the body was read, and a request
    // sent on it then would fail for the way the test sends, not for what the emulator answers.
    const target = {
      host: '127.0.0.1',
      port,
      method: request.method,
      path: url.pathname + url.search,
      headers,
      agent: false,
    };
    const outgoing = httpRequest(target, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(incoming.headers))
          if (value !== undefined) answer.set(name, String(value));
        const status = incoming.statusCode as number;
        resolve(
          new Response(status === 204 || status === 304 || request.method === 'HEAD' ? null : Buffer.concat(chunks), {
            status,
            headers: answer,
          }),
        );
      });
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Closes every emulator the node path made listen (call from afterEach or afterAll). */
export async function closeListening(): Promise<void> {
  const open = [...listening];
  listening.clear();
  await Promise.all(open.map((emulator) => emulator.close()));
}
