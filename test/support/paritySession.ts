/** A session of every /v1 operation, with webhooks and replies, driven through any fetch for the parity tests. */

import { signRequest } from '../../src/index.js';
import { apiKey, basic, signingSecret } from './api.js';

export interface SessionTarget {
  /** The base URL requests go to (the emulator's, or a recorder's in front of it). */
  base: string;
  fetch: (request: Request) => Promise<Response>;
  /** Moves the provider's clock; answers once the webhooks it made due were tried. */
  advance: (ms: number) => Promise<unknown>;
  /** A phone replies to a message at the provider. */
  inject: (messageId: string, from: string, text: string) => Promise<unknown>;
}

async function call(
  target: SessionTarget,
  method: string,
  path: string,
  body?: Record<string, unknown>,
  secret: string = signingSecret,
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { authorization: basic(apiKey) };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    if (method === 'POST' || method === 'PATCH') headers.signature = signRequest(body, secret);
  }
  const response = await target.fetch(
    new Request(`${target.base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Sends, a schedule edited and another deleted, reads, a list, balances, errors (two at once too), webhooks, a reply. */
export async function everyOperationSession(target: SessionTarget): Promise<void> {
  const sent = await call(target, 'POST', '/v1/messages', {
    recipient: ['27831234567', '27831234568'],
    message: 'Your code is 1234',
    client_reference: 'order-42',
  });
  await call(target, 'POST', '/sandbox/v1/messages', { recipient: ['27831234569'], message: 'Sandbox hello' });
  const scheduled = await call(target, 'POST', '/v1/messages', {
    recipient: ['27831234570'],
    message: 'Later',
    schedule: '2026-11-21T13:00',
  });
  const doomed = await call(target, 'POST', '/v1/messages', {
    recipient: ['27831234571'],
    message: 'Never',
    schedule: '2026-11-21T14:00:00+02:00',
  });
  await call(target, 'PATCH', `/v1/messages/${scheduled.body.id}`, { message: 'Later, edited' });
  await call(target, 'DELETE', `/v1/messages/${doomed.body.id}`);
  await call(target, 'GET', `/v1/messages/${sent.body.id}`);
  await call(target, 'GET', '/v1/messages?limit=5');
  await call(target, 'GET', '/v1/messages/balance');
  await call(target, 'POST', '/v1/messages', { message: 'no recipient' });
  await call(target, 'POST', '/v1/messages', {});
  await call(target, 'POST', '/v1/messages', { recipient: ['0831234567'], message: 'bad number' });
  await call(target, 'POST', '/v1/messages', { recipient: ['27831234567'], message: 'forged' }, 'wrong');
  await call(target, 'GET', '/v1/messages/not-a-message');
  await call(target, 'PUT', '/v1/messages/balance');
  await target.advance(10_000);
  await target.inject(sent.body.id as string, '27831234567', 'STOP');
  await target.advance(5_000);
  await call(target, 'GET', '/v1/messages/balance');
}

/** The session run on an in-process emulator (its manual clock), as `emulator.fetch` answers it. */
export function inProcess(emulator: {
  fetch: (request: Request) => Promise<Response>;
  clock: { advance: (ms: number) => Promise<unknown> };
  replies: { inject: (id: string, reply: { from: string; text: string }) => Promise<unknown> };
}): SessionTarget {
  return {
    base: 'http://emulator.test',
    fetch: (request) => emulator.fetch(request),
    advance: (ms) => emulator.clock.advance(ms),
    inject: (id, from, text) => emulator.replies.inject(id, { from, text }),
  };
}
