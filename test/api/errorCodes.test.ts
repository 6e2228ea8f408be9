/** One row per error code: the request that provokes it, the HTTP status it answers with, and no state change. */

import { expect, test } from 'vitest';
import { type Emulator, errorCatalogue } from '../../src/index.js';
import type { ErrorCode } from '../../src/index.js';
import { apiKey, balance, basic, call, makeEmulator, origin, scheduleIn, send } from '../support/api.js';

const ok = { recipient: ['27831234567'], message: 'Hello' };

interface Case {
  code: ErrorCode;
  trigger: string;
  options?: Parameters<typeof makeEmulator>[0];
  run(emulator: Emulator): Promise<{ status: number; body: any; headers: Headers }>;
}

const cases: Case[] = [
  {
    code: 'CONNECTION_INSECURE',
    trigger: 'plain HTTP when requireHttps is on',
    options: { requireHttps: true },
    run: (e) => call(e, 'GET', '/v1/messages/balance'),
  },
  {
    code: 'UNAUTHORIZED',
    trigger: 'no Authorization header',
    run: (e) => call(e, 'GET', '/v1/messages/balance', { key: false }),
  },
  {
    code: 'INVALID_API_KEY',
    trigger: 'a key no account has',
    run: (e) => call(e, 'GET', '/v1/messages/balance', { key: 'pk_nobody' }),
  },
  {
    code: 'INVALID_HTTP_REQUEST_METHOD',
    trigger: 'POST on the balance',
    run: (e) => call(e, 'POST', '/v1/messages/balance'),
  },
  {
    code: 'SIGNATURE_MISSING',
    trigger: 'a send without Signature',
    run: (e) => call(e, 'POST', '/v1/messages', { body: ok, sign: false }),
  },
  {
    code: 'SIGNATURE_MISMATCH',
    trigger: 'a send signed with another secret',
    run: (e) => call(e, 'POST', '/v1/messages', { body: ok, sign: 'wrong' }),
  },
  {
    code: 'RECIPIENT_MISSING_PARAMETER',
    trigger: 'no recipient',
    run: (e) => call(e, 'POST', '/v1/messages', { body: { message: 'Hi' } }),
  },
  {
    code: 'RECIPIENT_EMPTY_PARAMETER',
    trigger: 'recipient []',
    run: (e) => call(e, 'POST', '/v1/messages', { body: { recipient: [], message: 'Hi' } }),
  },
  {
    code: 'MESSAGE_MISSING_PARAMETER',
    trigger: 'no message',
    run: (e) => call(e, 'POST', '/v1/messages', { body: { recipient: ['27831234567'] } }),
  },
  {
    code: 'MESSAGE_EMPTY_PARAMETER',
    trigger: 'message "  "',
    run: (e) => call(e, 'POST', '/v1/messages', { body: { recipient: ['27831234567'], message: '  ' } }),
  },
  {
    code: 'BATCH_LIMIT_EXCEEDED',
    trigger: '501 recipients',
    run: (e) =>
      call(e, 'POST', '/v1/messages', {
        body: { recipient: Array.from({ length: 501 }, (_, i) => `27${String(800000000 + i)}`), message: 'Hi' },
      }),
  },
  {
    code: 'MESSAGE_LIMIT_EXCEEDED',
    trigger: '441 characters',
    run: (e) => call(e, 'POST', '/v1/messages', { body: { recipient: ['27831234567'], message: 'x'.repeat(441) } }),
  },
  {
    code: 'CLIENT_REFERENCE_LIMIT_EXCEEDED',
    trigger: 'client_reference of 101 characters',
    run: (e) => call(e, 'POST', '/v1/messages', { body: { ...ok, client_reference: 'r'.repeat(101) } }),
  },
  {
    code: 'INVALID_RECIPIENT_ENTRY',
    trigger: 'a +27 number',
    run: (e) => call(e, 'POST', '/v1/messages', { body: { recipient: ['+27831234567'], message: 'Hi' } }),
  },
  {
    code: 'INSUFFICIENT_BALANCE',
    trigger: 'a send above the balance',
    options: { balance: 0 },
    run: (e) => call(e, 'POST', '/v1/messages', { body: ok }),
  },
  {
    code: 'SCHEDULE_EMPTY_PARAMETER',
    trigger: 'schedule ""',
    run: (e) => call(e, 'POST', '/v1/messages', { body: { ...ok, schedule: '' } }),
  },
  {
    code: 'DATE_TIME_INVALID',
    trigger: 'schedule 10 minutes ahead',
    run: (e) => call(e, 'POST', '/v1/messages', { body: { ...ok, schedule: scheduleIn(10) } }),
  },
  {
    code: 'INTERNAL_SERVER_ERROR',
    trigger: 'an unexpected exception inside the emulator',
    run: (e) => {
      e.setOutcomeDecider(() => {
        throw new Error('boom');
      });
      return call(e, 'POST', '/v1/messages', { body: ok });
    },
  },
  { code: 'NO_SMS_MESSAGES', trigger: 'listing with no messages', run: (e) => call(e, 'GET', '/v1/messages') },
  {
    code: 'JSON_EXCEEDED',
    trigger: 'nesting deeper than 512',
    run: (e) =>
      call(e, 'POST', '/v1/messages', {
        raw: `{"a":${'['.repeat(600)}${']'.repeat(600)}}`,
        headers: { signature: 'x' },
      }),
  },
  {
    code: 'JSON_MALFORMED',
    trigger: 'mismatched brackets',
    run: (e) => call(e, 'POST', '/v1/messages', { raw: '{"recipient":["27831234567"}', headers: { signature: 'x' } }),
  },
  {
    code: 'JSON_ERROR_CTRL_CHAR',
    trigger: 'a raw control character in a string',
    run: (e) => call(e, 'POST', '/v1/messages', { raw: '{"message":"a\u0007"}', headers: { signature: 'x' } }),
  },
  {
    code: 'JSON_INVALID_SYNTAX',
    trigger: 'an unterminated object',
    run: (e) => call(e, 'POST', '/v1/messages', { raw: '{"message":', headers: { signature: 'x' } }),
  },
  {
    code: 'JSON_MALFORMED_UTF8',
    trigger: 'bytes that are not UTF-8',
    run: (e) =>
      call(e, 'POST', '/v1/messages', { raw: new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]), headers: { signature: 'x' } }),
  },
  {
    code: 'JSON_UNKNOWN',
    trigger: 'a JSON array body',
    run: (e) => call(e, 'POST', '/v1/messages', { raw: '["27831234567"]', headers: { signature: 'x' } }),
  },
  {
    code: 'MESSAGE_NOT_FOUND',
    trigger: 'an unknown id',
    run: (e) => call(e, 'GET', '/v1/messages/00000000-0000-4000-8000-000000000000'),
  },
  {
    code: 'MESSAGE_NOT_SCHEDULED',
    trigger: 'deleting a message sent now',
    run: async (e) => call(e, 'DELETE', `/v1/messages/${(await send(e, ok)).id}`),
  },
  {
    code: 'FORBIDDEN',
    trigger: 'a key without the send scope',
    run: (e) => {
      e.accounts.create({ apiKey: 'pk_readonly', signingSecret: 's', scopes: ['read', 'balance'] });
      return call(e, 'POST', '/v1/messages', { body: ok, key: 'pk_readonly', sign: 's' });
    },
  },
  { code: 'ROUTE_NOT_FOUND', trigger: 'an unknown path', run: (e) => call(e, 'GET', '/v2/messages') },
  { code: 'INVALID_QUERY_PARAMETER', trigger: 'page=0', run: (e) => call(e, 'GET', '/v1/messages?page=0') },
];

test.each(cases.map((c) => [c.code, c.trigger, c] as const))(
  '%s is answered for %s with its catalogued status and body',
  async (code, _trigger, c) => {
    const emulator = makeEmulator(c.options);
    const reply = await c.run(emulator);
    expect(reply.status).toBe(errorCatalogue[code].status);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body).toEqual({
      message: code,
      description: expect.any(String),
      documentation_url: `${origin}/_emulator/docs/errors#${code}`,
    });
  },
);

test('every code of the published catalogue has a row that provokes it', () => {
  const published = Object.entries(errorCatalogue)
    .filter(([, definition]) => definition.published)
    .map(([code]) => code);
  const covered = new Set(cases.map((c) => c.code));
  expect(published.filter((code) => !covered.has(code as ErrorCode))).toEqual([]);
});

test('a 401 carries WWW-Authenticate: Basic and a 405 carries Allow', async () => {
  const emulator = makeEmulator();
  const unauthorized = await call(emulator, 'GET', '/v1/messages/balance', { key: false });
  expect(unauthorized.headers.get('www-authenticate')).toMatch(/^Basic/);
  const wrongMethod = await call(emulator, 'PUT', '/v1/messages');
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.headers.get('allow')).toBe('GET, POST');
  expect((await call(emulator, 'POST', '/v1/messages/some-id')).headers.get('allow')).toBe('GET, PATCH, DELETE');
  expect((await call(emulator, 'DELETE', '/v1/messages/balance')).headers.get('allow')).toBe('GET');
});

test('a wrong method is answered before authentication, and authentication before the body', async () => {
  const emulator = makeEmulator();
  expect((await call(emulator, 'PATCH', '/v1/messages/balance', { key: false })).body.message).toBe(
    'INVALID_HTTP_REQUEST_METHOD',
  );
  expect((await call(emulator, 'POST', '/v1/messages', { key: 'pk_nobody', raw: '{bad' })).body.message).toBe(
    'INVALID_API_KEY',
  );
});

test('validation follows the documented order: body, signature, recipient, message, client_reference, schedule, balance', async () => {
  const emulator = makeEmulator({ balance: 0, chargeRejectedRecipients: false });
  const everythingWrong = { recipient: [], message: '', client_reference: 'r'.repeat(101), schedule: 'soon' };
  const codes: string[] = [];
  codes.push((await call(emulator, 'POST', '/v1/messages', { raw: '{', headers: { signature: 'x' } })).body.message);
  codes.push((await call(emulator, 'POST', '/v1/messages', { body: everythingWrong, sign: 'wrong' })).body.message);
  codes.push((await call(emulator, 'POST', '/v1/messages', { body: everythingWrong })).body.message);
  codes.push(
    (await call(emulator, 'POST', '/v1/messages', { body: { ...everythingWrong, recipient: ['27831234567'] } })).body
      .message,
  );
  codes.push(
    (
      await call(emulator, 'POST', '/v1/messages', {
        body: { ...everythingWrong, recipient: ['27831234567'], message: 'Hi' },
      })
    ).body.message,
  );
  codes.push(
    (
      await call(emulator, 'POST', '/v1/messages', {
        body: { recipient: ['27831234567'], message: 'Hi', schedule: 'soon' },
      })
    ).body.message,
  );
  codes.push(
    (await call(emulator, 'POST', '/v1/messages', { body: { recipient: ['27831234567'], message: 'Hi' } })).body
      .message,
  );
  expect(codes).toEqual([
    'JSON_INVALID_SYNTAX',
    'SIGNATURE_MISMATCH',
    'RECIPIENT_EMPTY_PARAMETER',
    'MESSAGE_EMPTY_PARAMETER',
    'CLIENT_REFERENCE_LIMIT_EXCEEDED',
    'DATE_TIME_INVALID',
    'INSUFFICIENT_BALANCE',
  ]);
});

test('a rejected request changes no state (no message, no charge)', async () => {
  const emulator = makeEmulator();
  for (const body of [
    { message: 'Hi' },
    { recipient: ['27831234567'], message: '' },
    { recipient: ['27831234567'], message: 'Hi', schedule: 'x' },
  ]) {
    expect((await call(emulator, 'POST', '/v1/messages', { body })).status).toBe(400);
  }
  expect(await balance(emulator)).toBe(1000);
  expect(emulator.messages.list().items).toEqual([]);
});

test('the wrapped envelope puts the error object under "error"', async () => {
  const emulator = makeEmulator({ errorEnvelope: 'wrapped' });
  const reply = await call(emulator, 'GET', '/v1/messages/balance', { key: 'pk_nobody' });
  expect(reply.body).toEqual({
    error: {
      message: 'INVALID_API_KEY',
      description: expect.any(String),
      documentation_url: expect.stringContaining('#INVALID_API_KEY'),
    },
  });
});

test('docsUrl makes documentation_url point at another documentation site', async () => {
  const emulator = makeEmulator({ docsUrl: 'https://docs.example.com/sms/' });
  expect((await call(emulator, 'GET', '/v1/messages/balance', { key: 'pk_nobody' })).body.documentation_url).toBe(
    'https://docs.example.com/sms/errors#INVALID_API_KEY',
  );
  expect((await call(emulator, 'GET', '/v1/messages/balance')).body.documentation_url).toBe(
    'https://docs.example.com/sms/messages#get-balance',
  );
});

test('the documentation page has an anchor for every error code and every operation', async () => {
  const emulator = makeEmulator();
  const errors = await (await emulator.fetch(new Request(`${origin}/_emulator/docs/errors`))).text();
  for (const code of Object.keys(errorCatalogue)) expect(errors).toContain(`id="${code}"`);
  const operations = await (await emulator.fetch(new Request(`${origin}/_emulator/docs/messages`))).text();
  for (const anchor of [
    'get-balance',
    'send-message',
    'schedule-message',
    'edit-message',
    'delete-message',
    'get-message',
    'list-messages',
  ]) {
    expect(operations).toContain(`id="${anchor}"`);
  }
});

test('the documentation index the banner prints answers its page instead of redirecting to itself', async () => {
  const emulator = makeEmulator();
  const index = await emulator.fetch(new Request(`${origin}/_emulator/docs/`, { redirect: 'manual' }));
  expect(index.status).toBe(200);
  expect(await index.text()).toContain('href="errors"');
  const bare = await emulator.fetch(new Request(`${origin}/_emulator/docs?x=1`, { redirect: 'manual' }));
  expect([bare.status, bare.headers.get('location')]).toEqual([302, '/_emulator/docs/']);
});

test('requireHttps honours X-Forwarded-Proto from a TLS proxy', async () => {
  const emulator = makeEmulator({ requireHttps: true });
  const reply = await call(emulator, 'GET', '/v1/messages/balance', {
    headers: { 'x-forwarded-proto': 'https', authorization: basic(apiKey) },
  });
  expect(reply.status).toBe(200);
});
