/** Regressions the property suite found: each hostile request here once crashed or answered 5xx. */

import { expect, test } from 'vitest';
import { makeEmulator, origin } from '../support/api.js';

test.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])(
  'answers a request with the method %s as an unknown method, not a thrown error',
  async (method) => {
    const emulator = makeEmulator();
    const response = await emulator.fetch(new Request(`${origin}/v1/messages`, { method }));
    expect(response.status).toBe(405);
    expect(((await response.json()) as { message: string }).message).toBe('INVALID_HTTP_REQUEST_METHOD');
  },
);
