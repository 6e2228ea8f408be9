/** Regressions the property suite found: each hostile request here once crashed or answered 5xx. */

import { expect, test } from 'vitest';
import { call, makeEmulator, origin } from '../support/api.js';

test.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])(
  'answers a request with the method %s as an unknown method, not a thrown error',
  async (method) => {
    const emulator = makeEmulator();
    const response = await emulator.fetch(new Request(`${origin}/v1/messages`, { method }));
    expect(response.status).toBe(405);
    expect(((await response.json()) as { message: string }).message).toBe('INVALID_HTTP_REQUEST_METHOD');
  },
);

test('an error description repeats at most 64 characters of a long key, id or schedule, then an ellipsis', async () => {
  const emulator = makeEmulator();
  const long = 'x'.repeat(6000);
  const replies = [
    await call(emulator, 'GET', '/v1/messages/balance', { key: `pk_${long}` }),
    await call(emulator, 'GET', `/v1/messages/${long}`),
    await call(emulator, 'DELETE', `/v1/messages/${long}`),
    await call(emulator, 'POST', '/v1/messages', {
      body: { recipient: ['27831234567'], message: 'x', schedule: long },
    }),
  ];
  expect(replies.map((reply) => reply.body.message)).toEqual([
    'INVALID_API_KEY',
    'MESSAGE_NOT_FOUND',
    'MESSAGE_NOT_FOUND',
    'DATE_TIME_INVALID',
  ]);
  for (const reply of replies) {
    expect(reply.body.description).toMatch(/"(pk_)?x{61,64}…"/);
    expect(reply.body.description.length).toBeLessThan(300);
  }
});
