/** The receiver on a port of its own, as the app serves it: POST JSON, answered with the receiver's status. */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryReceiver, Notification } from './deliveryReceiver.js';

export async function serveReceiver(receiver: DeliveryReceiver): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
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
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/sms`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
