/** A session of every /v1 operation, with webhooks and replies, driven against an emulator for the parity tests. */

import type { Emulator } from '../../src/index.js';
import { call } from './api.js';

/** Runs the session on `emulator` (manual clock): sends, a schedule edited and another deleted, reads, errors, replies. */
export async function everyOperationSession(emulator: Emulator, advance: (ms: number) => Promise<void>): Promise<void> {
  const sent = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567', '27831234568'], message: 'Your code is 1234', client_reference: 'order-42' },
  });
  await call(emulator, 'POST', '/sandbox/v1/messages', {
    body: { recipient: ['27831234569'], message: 'Sandbox hello' },
  });
  const scheduled = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234570'], message: 'Later', schedule: '2026-11-21T13:00' },
  });
  const doomed = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234571'], message: 'Never', schedule: '2026-11-21T14:00:00+02:00' },
  });
  await call(emulator, 'PATCH', `/v1/messages/${scheduled.body.id}`, { body: { message: 'Later, edited' } });
  await call(emulator, 'DELETE', `/v1/messages/${doomed.body.id}`);
  await call(emulator, 'GET', `/v1/messages/${sent.body.id}`);
  await call(emulator, 'GET', '/v1/messages?limit=5');
  await call(emulator, 'GET', '/v1/messages/balance');
  await call(emulator, 'POST', '/v1/messages', { body: { message: 'no recipient' } });
  await call(emulator, 'POST', '/v1/messages', { body: {} });
  await call(emulator, 'POST', '/v1/messages', { body: { recipient: ['0831234567'], message: 'bad number' } });
  await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567'], message: 'forged' },
    sign: 'wrong',
  });
  await call(emulator, 'GET', '/v1/messages/not-a-message');
  await call(emulator, 'PUT', '/v1/messages/balance');
  await advance(10_000);
  await emulator.replies.inject(sent.body.id as string, { from: '27831234567', text: 'STOP' });
  await advance(5_000);
  await call(emulator, 'GET', '/v1/messages/balance');
}
