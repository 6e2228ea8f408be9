/** The OpenAPI document: valid OpenAPI 3.1, and enough for a generic client to drive the API and the control API by operationId. */

import { Validator } from '@seriousme/openapi-schema-validator';
import { expect, test } from 'vitest';
import { errorCatalogue, signRequest } from '../../src/index.js';
import { apiKey, basic, makeEmulator, origin } from '../support/api.js';

type Doc = {
  paths: Record<
    string,
    Record<string, { operationId: string; security?: Record<string, unknown>[]; responses: Record<string, unknown> }>
  >;
};

async function documentOf(emulator: ReturnType<typeof makeEmulator>): Promise<Doc> {
  const response = await emulator.fetch(new Request(`${origin}/_emulator/openapi.json`));
  expect(response.status).toBe(200);
  return (await response.json()) as Doc;
}

test('GET /_emulator/openapi.json validates as OpenAPI 3.1 and lists every error code, emulator-only ones marked', async () => {
  const document = await documentOf(makeEmulator());
  const result = await new Validator().validate(document as never);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect((document as { openapi?: string }).openapi).toBe('3.1.0');
  const text = JSON.stringify(document);
  for (const [code, definition] of Object.entries(errorCatalogue)) {
    expect(text, code).toContain(definition.published ? `\`${code}\`` : `\`${code}\` (emulator only)`);
  }
});

/** A generic client: finds an operation by its id in the document and sends it, authenticating as its security asks. */
function clientOf(emulator: ReturnType<typeof makeEmulator>, document: Doc) {
  return async (
    operationId: string,
    input: { path?: Record<string, string>; query?: Record<string, string>; body?: Record<string, unknown> } = {},
  ) => {
    for (const [template, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (operation.operationId !== operationId) continue;
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(input.path?.[name] ?? ''));
        const schemes = new Set((operation.security ?? []).flatMap((requirement) => Object.keys(requirement)));
        const headers: Record<string, string> = {};
        if (schemes.has('basicAuth')) headers.authorization = basic(apiKey);
        if (input.body !== undefined) headers['content-type'] = 'application/json';
        if (schemes.has('signature') && input.body !== undefined)
          headers.signature = signRequest(input.body, 'sk_test_sms_emulator');
        const search = input.query ? `?${new URLSearchParams(input.query)}` : '';
        const response = await emulator.fetch(
          new Request(`${origin}${path}${search}`, {
            method: method.toUpperCase(),
            headers,
            body: input.body && JSON.stringify(input.body),
          }),
        );
        const text = await response.text();
        expect(Object.keys(operation.responses), `${operationId} answered ${response.status}`).toContain(
          String(response.status),
        );
        return { status: response.status, body: text ? JSON.parse(text) : undefined };
      }
    }
    throw new Error(`no operation ${operationId}`);
  };
}

test('a client generated from the document drives the API and the control API by operationId', async () => {
  const emulator = makeEmulator();
  const call = clientOf(emulator, await documentOf(emulator));
  expect((await call('getBalance')).body.balance).toBe(1000);
  const sent = await call('sendMessage', { body: { recipient: ['27831234567'], message: 'Hello' } });
  expect(sent.status).toBe(201);
  expect((await call('clock.move', { body: { advance: '5s' } })).status).toBe(200);
  expect((await call('getMessage', { path: { message_id: sent.body.id } })).body.status).toBe('delivered');
  expect((await call('messages.get', { path: { id: sent.body.id } })).body.legs[0].status).toBe('delivered');
  expect((await call('listMessages', { query: { status: 'delivered' } })).body.total_items).toBe(1);
  const later = await call('sendMessage', {
    body: { recipient: ['27831234567'], message: 'Later', schedule: '2026-11-22T09:30' },
  });
  expect(
    (await call('editMessage', { path: { message_id: later.body.id }, body: { message: 'Changed' } })).body.message,
  ).toBe('Changed');
  expect((await call('deleteMessage', { path: { message_id: later.body.id } })).body.status).toBe('successful');
  expect((await call('accounts.create', { body: { apiKey: 'pk_generated' } })).status).toBe(201);
  expect((await call('accounts.list', { query: { limit: '1', page: '2' } })).body.items[0].apiKey).toBe('pk_generated');
  expect((await call('requests.find', { query: { method: 'DELETE' } })).body.total).toBe(1);
  expect((await call('getMessage', { path: { message_id: 'nope' } })).body.message).toBe('MESSAGE_NOT_FOUND');
  expect((await call('reset')).body).toEqual({ status: 'reset' });
});

test('the document names the sandbox as a second server; a client pointed at it sends there, and the control API stays at the origin', async () => {
  const emulator = makeEmulator();
  const document = (await documentOf(emulator)) as Doc & {
    servers: { url: string }[];
    paths: Record<string, { servers?: { url: string }[] }>;
  };
  expect(document.servers.map((server) => server.url)).toEqual(['/', '/sandbox']);
  // As a generated client resolves them: the server URL against the document's address, the path appended.
  const at = (server: { url: string }, path: string): string =>
    new URL(`${server.url.replace(/\/$/, '')}${path}`, `${origin}/_emulator/openapi.json`).href;
  const sandbox = document.servers[1] as { url: string };
  const body = { recipient: ['27831234567'], message: 'Sandboxed' };
  const headers = {
    authorization: basic(apiKey),
    'content-type': 'application/json',
    signature: signRequest(body, 'sk_test_sms_emulator'),
  };
  const sent = await emulator.fetch(
    new Request(at(sandbox, '/v1/messages'), { method: 'POST', headers, body: JSON.stringify(body) }),
  );
  expect(sent.status).toBe(201);
  const control = document.paths['/_emulator/messages']?.servers ?? [];
  expect(control.map((server) => server.url)).toEqual(['/']);
  const listed = await emulator.fetch(new Request(at(control[0] as { url: string }, '/_emulator/messages')));
  expect(((await listed.json()) as { items: { environment: string }[] }).items.map((item) => item.environment)).toEqual(
    ['sandbox'],
  );
});
