/** Faults that pick sends by recipient (match.recipient), on both request paths, per account and emulator-wide. */

import { afterEach, expect, test } from 'vitest';
import { type Emulator, signRequest } from '../../src/index.js';
import { basic, call, makeEmulator, origin, useRequestPath } from '../support/api.js';
import { requestPaths } from '../support/requestPaths.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  useRequestPath('hono');
  await emulator?.close();
});

const troubled = '27831230000';
const fine = '27831239999';

/** A world whose own scenario fails sends naming `troubled`, and a sender signed as its account. */
function worldWithFault(on: Emulator, fault: Record<string, unknown>) {
  const { account } = on.worlds.create({ scenario: { faults: [fault] } });
  const sendTo = async (...recipients: string[]) =>
    call(on, 'POST', '/v1/messages', {
      body: { recipient: recipients, message: 'Your order has shipped' },
      key: account.apiKey,
      sign: account.signingSecret,
    });
  return { account, sendTo };
}

test.each(requestPaths)(
  'a send to the troubled number fails and a send to another number in the same test succeeds, through %s',
  async (path) => {
    useRequestPath(path);
    emulator = makeEmulator();
    const { account, sendTo } = worldWithFault(emulator, {
      match: { operation: 'send', recipient: troubled },
      error: { status: 503, code: 'INTERNAL_SERVER_ERROR' },
    });
    const failed = await sendTo(troubled);
    expect(failed.status).toBe(503);
    expect(failed.body.message).toBe('INTERNAL_SERVER_ERROR');
    expect((await sendTo(fine)).status).toBe(201);
    // A batch naming it among others fails as a whole, as the real gateway refuses a request, not a number.
    expect((await sendTo(fine, troubled)).status).toBe(503);
    // Nothing of the failed sends was stored or charged.
    expect(emulator.messages.list({ account: account.apiKey }).items.map((message) => message.recipient)).toEqual([
      [fine],
    ]);
  },
);

test.each(requestPaths)('an error or network fault by recipient fails that number only, through %s', async (path) => {
  useRequestPath(path);
  emulator = makeEmulator();
  const { account, sendTo } = worldWithFault(emulator, {
    match: { recipient: { prefix: '2783123000' } },
    error: { status: 429, code: 'TOO_MANY_REQUESTS' },
  });
  expect((await sendTo(troubled)).status).toBe(429);
  expect((await sendTo(fine)).status).toBe(201);
  emulator.accounts.setScenario(account.apiKey, { faults: [{ match: { recipient: troubled }, network: 'reset' }] });
  await expect(sendTo(troubled)).rejects.toThrow();
  expect((await sendTo(fine)).status).toBe(201);
});

test.each(requestPaths)(
  'nth counts only the sends to the matching number; reads and other numbers are not counted, through %s',
  async (path) => {
    useRequestPath(path);
    emulator = makeEmulator();
    const { account, sendTo } = worldWithFault(emulator, {
      match: { recipient: troubled },
      nth: 2,
      error: { status: 500 },
    });
    const statuses = [];
    statuses.push((await sendTo(troubled)).status);
    statuses.push((await sendTo(fine)).status);
    statuses.push((await call(emulator, 'GET', '/v1/messages/balance', { key: account.apiKey })).status);
    statuses.push((await sendTo(troubled)).status);
    statuses.push((await sendTo(troubled)).status);
    expect(statuses).toEqual([201, 201, 200, 500, 201]);
  },
);

test.each(requestPaths)(
  "a body the route refuses gets the route's own error, not the fault, through %s",
  async (path) => {
    useRequestPath(path);
    emulator = makeEmulator();
    const { account } = worldWithFault(emulator, { match: { recipient: '*' }, error: { status: 503 } });
    const broken = await call(emulator, 'POST', '/v1/messages', {
      raw: '{"recipient": ["27831230000"',
      key: account.apiKey,
    });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/^JSON_/);
  },
);

test('an edit that moves a scheduled message to the troubled number meets the fault', async () => {
  emulator = makeEmulator();
  const { account, sendTo } = worldWithFault(emulator, {
    match: { operation: 'edit', recipient: troubled },
    error: { status: 503 },
  });
  const scheduled = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: [fine], message: 'Later', schedule: '2026-11-23T12:00:00+02:00' },
    key: account.apiKey,
    sign: account.signingSecret,
  });
  expect(scheduled.status).toBe(201);
  const edit = (recipient: string) =>
    call(emulator!, 'PATCH', `/v1/messages/${scheduled.body.id}`, {
      body: { recipient: [recipient] },
      key: account.apiKey,
      sign: account.signingSecret,
    });
  expect((await edit(troubled)).status).toBe(503);
  expect((await edit('27831238888')).status).toBe(200);
  expect((await sendTo(troubled)).status).toBe(201);
});

test("the emulator's own recipient fault reads a body that arrives in chunks once, and the route still gets it", async () => {
  emulator = makeEmulator({
    scenario: { version: 1, faults: [{ match: { recipient: troubled }, error: { status: 503 } }] },
  });
  const chunked = (recipient: string) => {
    const body = { recipient: [recipient], message: 'In pieces' };
    const text = JSON.stringify(body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        controller.enqueue(bytes.slice(0, 10));
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    return emulator!.fetch(
      new Request(`${origin}/v1/messages`, {
        method: 'POST',
        headers: {
          authorization: basic('pk_test_sms_emulator'),
          'content-type': 'application/json',
          signature: signRequest(body, 'sk_test_sms_emulator'),
        },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
  };
  expect((await chunked(troubled)).status).toBe(503);
  const sent = await chunked(fine);
  expect(sent.status).toBe(201);
  expect(((await sent.json()) as { recipient: string[] }).recipient).toEqual([fine]);
});

test('a recipient match that is not a usable glob is refused with the path of the field', () => {
  expect(() =>
    makeEmulator({
      scenario: { version: 1, faults: [{ match: { recipient: { regex: '(' } }, error: { status: 500 } }] },
    }),
  ).toThrow(/faults\[0\]\.match\.recipient/);
});
