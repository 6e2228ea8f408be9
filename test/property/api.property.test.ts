/** Property: hostile API requests (live and sandbox) never get a 5xx, always a catalogued error, and change nothing when refused. */

import fc from 'fast-check';
import { test } from 'vitest';
import { expect } from 'vitest';
import {
  type FuzzRequest,
  expectUsable,
  expectWellFormed,
  fuzzEmulator,
  pathTail,
  requestArbitrary,
  runs,
  send,
  stateOf,
} from './arbitraries.js';
import { requestPaths } from '../support/requestPaths.js';

const apiTails = fc.oneof(
  fc.constantFrom('/messages', '/messages/balance', '/messages/', '/messages/unknown-id', '/messages/balance/x'),
  pathTail.map((tail) => `/messages${tail}`),
  pathTail,
);

/** The spec charges a send refused for a malformed recipient (capped); every other refusal changes nothing. */
const chargedWhenRefused = new Set(['INVALID_RECIPIENT_ENTRY']);

test.each(requestPaths)(
  'hostile API requests get no 5xx, only catalogued errors, and a refused one changes no state, through %s',
  async (path) => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          requestArbitrary(
            ['/v1', '/sandbox/v1', '/v2', ''],
            apiTails,
            fc.constantFrom('/messages', '/messages/balance', '/messages/unknown-id', '/messages/{last}'),
          ),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
        async (requests: FuzzRequest[]) => {
          const emulator = fuzzEmulator();
          try {
            for (const request of requests) {
              const before = stateOf(emulator);
              const answer = await send(emulator, request, path);
              if (!answer) continue;
              const code = expectWellFormed(request, answer);
              if (code !== undefined && !chargedWhenRefused.has(code))
                expect(stateOf(emulator), `${request.method} ${request.path} → ${code} changed state`).toBe(before);
            }
            await expectUsable(emulator);
          } finally {
            await emulator.close();
          }
        },
      ),
      runs(120),
    );
  },
  120_000,
);
