/** A webhook receiver with a state hook, for check-receiver's tests: correct, or with one of the two classic bugs. */

import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the receiver keeps per message: the status it holds and how many notifications it acted on. */
interface Kept {
  status: string;
  notifications: number;
}

/**
 * `correct` de-duplicates on the event id and never lets an older status overwrite a newer one; `counts-every-post`
 * processes a re-sent notification again; `last-wins` stores whatever came last; `uncounted` is correct but its hook
 * does not answer `notifications`.
 */
export type ReceiverKind = 'correct' | 'counts-every-post' | 'last-wins' | 'uncounted';

export interface StatefulReceiver {
  /** Where notifications are posted: `<origin>/hooks/sms`. */
  url: string;
  /** The state hook's template: `<origin>/sms/{id}`. */
  state: string;
  /** Every post's headers and body text, in arrival order. */
  posts: { headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

export async function statefulReceiver(kind: ReceiverKind): Promise<StatefulReceiver> {
  const kept = new Map<string, Kept>();
  const events = new Set<string>();
  const posts: StatefulReceiver['posts'] = [];
  const rank = (status: string): number => (status === 'submitted' ? 0 : 1);
  const handle = (request: IncomingMessage, response: ServerResponse, body: string): void => {
    const asked = /^\/sms\/([^/?]+)$/.exec(request.url ?? '');
    if (request.method === 'GET' && asked !== null) {
      const state = kept.get(decodeURIComponent(asked[1] as string));
      if (state === undefined) return void response.writeHead(404).end();
      const shown = kind === 'uncounted' ? { status: state.status } : state;
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(shown));
    }
    posts.push({ headers: request.headers, body });
    const payload = JSON.parse(body || '{}') as Record<string, unknown>;
    const event = String(request.headers['x-emulator-event-id']);
    if (payload.type === 'sms' && (kind === 'counts-every-post' || kind === 'last-wins' || !events.has(event))) {
      events.add(event);
      const id = String(payload.id);
      const status = String(payload.status);
      const state = kept.get(id) ?? { status, notifications: 0 };
      state.notifications += 1;
      if (kind === 'last-wins' || rank(status) >= rank(state.status)) state.status = status;
      kept.set(id, state);
    }
    response.writeHead(200).end();
  };
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => handle(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/hooks/sms`,
    state: `${origin}/sms/{id}`,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
