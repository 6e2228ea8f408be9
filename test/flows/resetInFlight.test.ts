/** A reset while an API request waits (its body still arriving, injected latency) leaves the state whole: the request is served by the state it meets. */

import { expect, test } from 'vitest';
import { signRequest } from '../../src/index.js';
import { apiKey, balance, basic, call, makeEmulator, origin, signingSecret } from '../support/api.js';

const fields = { recipient: ['27831234567'], message: 'Hello' };
const headers = {
  authorization: basic(apiKey),
  'content-type': 'application/json',
  signature: signRequest(fields, signingSecret),
};

/** The send answered 201 is in the account's list and was charged, like any send. */
async function expectWhole(emulator: ReturnType<typeof makeEmulator>, reply: Response): Promise<void> {
  expect(reply.status).toBe(201);
  const { id } = (await reply.json()) as { id: string };
  const list = await call(emulator, 'GET', '/v1/messages');
  expect(list.body.list.map((message: { id: string }) => message.id)).toEqual([id]);
  expect(await balance(emulator)).toBeLessThan(1000);
}

test('a send whose body was still arriving when the emulator was reset is stored, listed and charged in the new state', async () => {
  const emulator = makeEmulator();
  const text = JSON.stringify(fields);
  let stream!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (controller) => void (stream = controller) });
  stream.enqueue(new TextEncoder().encode(text.slice(0, 5)));
  const answer = emulator.fetch(
    new Request(`${origin}/v1/messages`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit),
  );
  // Let the request get as far as reading its body.
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  await emulator.reset();
  stream.enqueue(new TextEncoder().encode(text.slice(5)));
  stream.close();
  await expectWhole(emulator, await answer);
});

test('a send held by injected latency when the emulator was reset is stored, listed and charged in the new state', async () => {
  const emulator = makeEmulator({
    scenario: { version: 1, faults: [{ match: { operation: 'send' }, latency: '20ms' }] },
  });
  let resets = 0;
  // The fault is announced as the latency starts: the reset lands while the send waits.
  emulator.on('fault.injected', () => {
    if (resets++ === 0) emulator.reset();
  });
  const answer = await emulator.fetch(
    new Request(`${origin}/v1/messages`, { method: 'POST', headers, body: JSON.stringify(fields) }),
  );
  expect(resets).toBe(1);
  await expectWhole(emulator, answer);
});
