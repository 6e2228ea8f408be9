/** The messages API contract, run against live and the sandbox, each through both request paths (hono's and the node fast lane). */

import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { signRequest } from '../../src/index.js';
import {
  apiKey,
  balance,
  call,
  type Environment,
  makeEmulator,
  origin,
  prefix,
  scheduleIn,
  send,
  signingSecret,
  useRequestPath,
} from '../support/api.js';
import { type RequestPath, closeListening, requestPaths } from '../support/requestPaths.js';

afterEach(closeListening);

const cases = requestPaths.flatMap((path) =>
  (['live', 'sandbox'] as const).map((environment) => [environment, path] as [Environment, RequestPath]),
);

describe.each(cases)('%s through %s', (environment, path) => {
  beforeAll(() => useRequestPath(path));
  afterAll(() => useRequestPath('hono'));
  const base = prefix(environment);
  const api = `${origin}${base}`;

  test('GET balance returns the balance and documentation_url, and no _links', async () => {
    const reply = await call(makeEmulator(), 'GET', `${base}/messages/balance`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ balance: 1000, documentation_url: `${origin}/_emulator/docs/messages#get-balance` });
  });

  test('POST without schedule sends now: 201, status pending, schedule null, credit charged, self link only', async () => {
    const emulator = makeEmulator();
    const reply = await call(emulator, 'POST', `${base}/messages`, {
      body: { recipient: ['27831234567', '27831234568'], message: 'Hello there', client_reference: 'order-7' },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      type: 'sms',
      recipient: ['27831234567', '27831234568'],
      message: 'Hello there',
      client_reference: 'order-7',
      schedule: null,
      status: 'pending',
      credit: 2,
      creation_date: '2026-11-21T12:00:00+02:00',
      delivery_date: null,
      _links: { self: { href: `${api}/messages/${reply.body.id}`, method: 'GET' } },
      documentation_url: `${origin}/_emulator/docs/messages#send-message`,
    });
    expect(await balance(emulator, environment)).toBe(998);
  });

  test('POST with schedule: status scheduled, credit 0, self/edit/delete links, normalised schedule, nothing charged', async () => {
    const emulator = makeEmulator();
    const message = await send(
      emulator,
      { recipient: ['27831234567'], message: 'Later', schedule: scheduleIn(30).slice(0, 16) },
      environment,
    );
    expect(message).toMatchObject({ status: 'scheduled', credit: 0, schedule: '2026-11-21T12:30:00+02:00' });
    const href = `${api}/messages/${message.id}`;
    expect(message._links).toEqual({
      self: { href, method: 'GET' },
      edit: { href, method: 'PATCH' },
      delete: { href, method: 'DELETE' },
    });
    expect(message.documentation_url).toBe(`${origin}/_emulator/docs/messages#schedule-message`);
    expect(await balance(emulator, environment)).toBe(1000);
  });

  test('GET by id returns the message; an id of another account is MESSAGE_NOT_FOUND', async () => {
    const emulator = makeEmulator();
    emulator.accounts.create({ apiKey: 'pk_other', signingSecret: 'other' });
    const message = await send(emulator, { recipient: ['27831234567'], message: 'Mine' }, environment);
    const reply = await call(emulator, 'GET', `${base}/messages/${message.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ...message, documentation_url: `${origin}/_emulator/docs/messages#get-message` });
    const stranger = await call(emulator, 'GET', `${base}/messages/${message.id}`, { key: 'pk_other' });
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBe('MESSAGE_NOT_FOUND');
  });

  test('PATCH edits any field of a scheduled message and keeps it scheduled and free', async () => {
    const emulator = makeEmulator();
    const message = await send(
      emulator,
      { recipient: ['27831234567'], message: 'Draft', schedule: scheduleIn(30) },
      environment,
    );
    const edit = await call(emulator, 'PATCH', `${base}/messages/${message.id}`, {
      body: {
        recipient: ['27831234568', '27831234569'],
        message: 'Final',
        schedule: scheduleIn(60),
        client_reference: 'ref-2',
      },
    });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({
      id: message.id,
      recipient: ['27831234568', '27831234569'],
      message: 'Final',
      schedule: '2026-11-21T13:00:00+02:00',
      client_reference: 'ref-2',
      status: 'scheduled',
      credit: 0,
      documentation_url: `${origin}/_emulator/docs/messages#edit-message`,
    });
    const single = await call(emulator, 'PATCH', `${base}/messages/${message.id}`, {
      body: { message: 'Only the text' },
      sign: false,
    });
    expect(single.body).toMatchObject({ message: 'Only the text', recipient: ['27831234568', '27831234569'] });
    expect(await balance(emulator, environment)).toBe(1000);
  });

  test('PATCH checks a Signature when one is sent, and validates fields like a send', async () => {
    const emulator = makeEmulator();
    const message = await send(
      emulator,
      { recipient: ['27831234567'], message: 'Draft', schedule: scheduleIn(30) },
      environment,
    );
    const path = `${base}/messages/${message.id}`;
    expect((await call(emulator, 'PATCH', path, { body: { message: 'x' }, sign: 'wrong' })).body.message).toBe(
      'SIGNATURE_MISMATCH',
    );
    expect((await call(emulator, 'PATCH', path, { body: { recipient: ['0831234567'] } })).body.message).toBe(
      'INVALID_RECIPIENT_ENTRY',
    );
    expect((await call(emulator, 'PATCH', path, { body: { schedule: scheduleIn(5) } })).body.message).toBe(
      'DATE_TIME_INVALID',
    );
    expect((await call(emulator, 'PATCH', path, { body: { message: '' } })).body.message).toBe(
      'MESSAGE_EMPTY_PARAMETER',
    );
    expect((await call(emulator, 'GET', path)).body).toMatchObject({ message: 'Draft', recipient: ['27831234567'] });
    expect(await balance(emulator, environment)).toBe(1000);
  });

  test('DELETE removes a scheduled message: {status: successful}, then MESSAGE_NOT_FOUND', async () => {
    const emulator = makeEmulator();
    const message = await send(
      emulator,
      { recipient: ['27831234567'], message: 'Bye', schedule: scheduleIn(30) },
      environment,
    );
    const reply = await call(emulator, 'DELETE', `${base}/messages/${message.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'successful' });
    expect((await call(emulator, 'GET', `${base}/messages/${message.id}`)).status).toBe(404);
    expect((await call(emulator, 'DELETE', `${base}/messages/${message.id}`)).body.message).toBe('MESSAGE_NOT_FOUND');
  });

  test('PATCH and DELETE of a message that is not scheduled are MESSAGE_NOT_SCHEDULED (402)', async () => {
    const emulator = makeEmulator();
    const message = await send(emulator, { recipient: ['27831234567'], message: 'Now' }, environment);
    for (const method of ['PATCH', 'DELETE']) {
      const reply = await call(emulator, method, `${base}/messages/${message.id}`, {
        body: method === 'PATCH' ? { message: 'x' } : undefined,
      });
      expect(reply.status).toBe(402);
      expect(reply.body.message).toBe('MESSAGE_NOT_SCHEDULED');
    }
  });

  test('form-encoded sends work with recipient[] arrays and with a single recipient', async () => {
    const emulator = makeEmulator();
    const fields = { recipient: ['27831234567', '27831234568'], message: 'Form body' };
    const raw = 'recipient%5B%5D=27831234567&recipient%5B%5D=27831234568&message=Form%20body';
    const reply = await call(emulator, 'POST', `${base}/messages`, {
      raw,
      contentType: 'application/x-www-form-urlencoded',
      headers: { signature: signRequest(fields, signingSecret) },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.recipient).toEqual(fields.recipient);
    const single = await call(emulator, 'POST', `${base}/messages`, {
      raw: 'recipient=27831234567&message=One',
      contentType: 'application/x-www-form-urlencoded',
      headers: { signature: signRequest({ recipient: '27831234567', message: 'One' }, signingSecret) },
    });
    expect(single.body.recipient).toEqual(['27831234567']);
  });

  test('links are built from the address the request came in on, proxies included', async () => {
    const emulator = makeEmulator();
    const message = await send(emulator, { recipient: ['27831234567'], message: 'Hi' }, environment);
    const reply = await call(emulator, 'GET', `${base}/messages/${message.id}`, {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'sms.example.com' },
    });
    expect(reply.body._links.self.href).toBe(`https://sms.example.com${base}/messages/${message.id}`);
  });
});

test('a trailing slash reaches the same endpoint', async () => {
  expect((await call(makeEmulator(), 'GET', '/v1/messages/balance/')).status).toBe(200);
});

test('text fields read numbers as text; an object as message is MESSAGE_EMPTY_PARAMETER; as client_reference, absent', async () => {
  const emulator = makeEmulator();
  expect((await send(emulator, { recipient: ['27831234567'], message: 12345 })).message).toBe('12345');
  expect(
    (await call(emulator, 'POST', '/v1/messages', { body: { recipient: ['27831234567'], message: { a: 1 } } })).body
      .message,
  ).toBe('MESSAGE_EMPTY_PARAMETER');
  expect(
    (await send(emulator, { recipient: ['27831234567'], message: 'x', client_reference: { a: 1 } })).client_reference,
  ).toBeNull();
});

test.each([
  [['27 831234567'], 'spaces'],
  [['0831234567'], 'a leading zero'],
  [['+27831234567'], 'a plus'],
  [['2783123456'], '10 digits'],
  [['278312345678'], '12 digits'],
  [['28831234567'], 'another prefix'],
  [[27831234567], 'a number instead of a string'],
  [{ n: 1 }, 'an object'],
] as [unknown, string][])('recipient %j (%s) is INVALID_RECIPIENT_ENTRY', async (recipient) => {
  const reply = await call(makeEmulator(), 'POST', '/v1/messages', { body: { recipient, message: 'Hi' } });
  expect(reply.body.message).toBe('INVALID_RECIPIENT_ENTRY');
});

test('message length counts Unicode code points against messageLimit', async () => {
  const emulator = makeEmulator({ messageLimit: 5 });
  expect(
    (await call(emulator, 'POST', '/v1/messages', { body: { recipient: ['27831234567'], message: '😀😀😀😀😀' } }))
      .status,
  ).toBe(201);
  expect(
    (await call(emulator, 'POST', '/v1/messages', { body: { recipient: ['27831234567'], message: '😀😀😀😀😀😀' } }))
      .body.message,
  ).toBe('MESSAGE_LIMIT_EXCEEDED');
});

test('batchLimit lowers the recipients allowed per request', async () => {
  const emulator = makeEmulator({ batchLimit: 2 });
  const reply = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567', '27831234568', '27831234569'], message: 'Hi' },
  });
  expect(reply.body).toMatchObject({
    message: 'BATCH_LIMIT_EXCEEDED',
    description: expect.stringContaining('at most 2'),
  });
});

test('requireSignatureOnPatch makes a PATCH without Signature SIGNATURE_MISSING', async () => {
  const emulator = makeEmulator({ requireSignatureOnPatch: true });
  const message = await send(emulator, { recipient: ['27831234567'], message: 'Draft', schedule: scheduleIn(30) });
  expect(
    (await call(emulator, 'PATCH', `/v1/messages/${message.id}`, { body: { message: 'x' }, sign: false })).body.message,
  ).toBe('SIGNATURE_MISSING');
  expect((await call(emulator, 'PATCH', `/v1/messages/${message.id}`, { body: { message: 'x' } })).status).toBe(200);
});

test('timeZoneOffset renders times in another offset', async () => {
  const emulator = makeEmulator({ timeZoneOffset: '-05:00' });
  expect((await send(emulator, { recipient: ['27831234567'], message: 'Hi' })).creation_date).toBe(
    '2026-11-21T05:00:00-05:00',
  );
});

test('the same seed gives the same message ids', async () => {
  const ids = async () => {
    const emulator = makeEmulator({ seed: 'repeatable' });
    return [
      (await send(emulator, { recipient: ['27831234567'], message: 'a' })).id,
      (await send(emulator, { recipient: ['27831234567'], message: 'b' })).id,
    ];
  };
  const first = await ids();
  expect(await ids()).toEqual(first);
  expect(first[0]).not.toBe(first[1]);
});

test('the default account key is the documented one', () => {
  expect(apiKey).toBe(makeEmulator().options.apiKey);
});
