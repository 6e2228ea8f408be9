/**
 * The receiver on a port of its own, as the app serves it: POST JSON, answered with the receiver's status; and, for
 * tests only, `GET /test/sms/{id}`: what it holds for a message, the state check-receiver's `state` hook reads.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryReceiver, Notification } from './deliveryReceiver.js';

export async function serveReceiver(
  receiver: DeliveryReceiver,
): Promise<{ url: string; state: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const asked = /^\/test\/sms\/([^/?]+)$/.exec(request.url ?? '');
    if (request.method === 'GET' && asked !== null) {
      const id = decodeURIComponent(asked[1] as string);
      const status = receiver.statusOf(id);
      if (status === undefined) return void response.writeHead(404).end();
      const held = { status, notifications: receiver.notificationsOf(id) };
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(held));
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      let status = 400;
      try {
        status = receiver.handle(JSON.parse(body) as Notification);
      } catch {
        status = 500;
      }
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/webhooks/sms`,
    state: `${origin}/test/sms/{id}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
