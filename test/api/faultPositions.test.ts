/** Faults that pick requests by position: the Nth matching one (nth), or every Nth (every), on both request paths. */

import { afterEach, expect, test } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { call, makeEmulator, useRequestPath } from '../support/api.js';
import { requestPaths } from '../support/requestPaths.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  useRequestPath('hono');
  await emulator?.close();
});

async function sendStatuses(on: Emulator, times: number, key?: string, secret?: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) {
    const reply = await call(on, 'POST', '/v1/messages', {
      body: { recipient: ['27831234567'], message: `Batch ${i + 1}` },
      ...(key === undefined ? {} : { key, sign: secret }),
    });
    statuses.push(reply.status);
  }
  return statuses;
}

test.each(requestPaths)("a campaign's second batch fails, and only it (nth: 2), through %s", async (path) => {
  useRequestPath(path);
  emulator = makeEmulator({
    scenario: {
      version: 1,
      faults: [{ match: { operation: 'send' }, nth: 2, error: { status: 503 } }],
    },
  });
  expect(await sendStatuses(emulator, 4)).toEqual([201, 503, 201, 201]);
  // A balance read does not match the fault, so it does not count.
  expect((await call(emulator, 'GET', '/v1/messages/balance')).status).toBe(200);
});

test.each(requestPaths)('every: 3 fails the 3rd, 6th and 9th send, through %s', async (path) => {
  useRequestPath(path);
  emulator = makeEmulator({
    scenario: { version: 1, faults: [{ match: { operation: 'send' }, every: 3, error: { status: 500 } }] },
  });
  expect(await sendStatuses(emulator, 9)).toEqual([201, 201, 500, 201, 201, 500, 201, 201, 500]);
});

test("an account's own fault counts that account's requests only", async () => {
  emulator = makeEmulator();
  const one = emulator.worlds.create({
    scenario: { faults: [{ match: { operation: 'send' }, nth: 2, error: { status: 500 } }] },
  });
  const other = emulator.worlds.create({
    scenario: { faults: [{ match: { operation: 'send' }, nth: 2, error: { status: 500 } }] },
  });
  const [a1] = await sendStatuses(emulator, 1, one.account.apiKey, one.account.signingSecret);
  const [b1, b2] = await sendStatuses(emulator, 2, other.account.apiKey, other.account.signingSecret);
  const [a2] = await sendStatuses(emulator, 1, one.account.apiKey, one.account.signingSecret);
  expect([a1, b1, b2, a2]).toEqual([201, 201, 500, 500]);
});

test('nth and every together, or below their range, are refused with the path of the field', () => {
  expect(() =>
    makeEmulator({ scenario: { version: 1, faults: [{ nth: 2, every: 2, error: { status: 500 } }] } }),
  ).toThrow(/faults\[0\]\.every: give nth or every, not both/);
  expect(() => makeEmulator({ scenario: { version: 1, faults: [{ every: 1, error: { status: 500 } }] } })).toThrow(
    /faults\[0\]\.every/,
  );
  expect(() => makeEmulator({ scenario: { version: 1, faults: [{ nth: 0, error: { status: 500 } }] } })).toThrow(
    /faults\[0\]\.nth/,
  );
});
