/** Network faults: the transport fails instead of an API answer, through a real socket on both request paths, and without one in emulator.fetch. */

import { request as httpRequest } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { signRequest } from '../../src/domain/signing.js';
import type { Emulator, ScenarioInput } from '../../src/index.js';
import { apiKey, balance, basic, makeEmulator, signingSecret } from '../support/api.js';

const open: Emulator[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((emulator) => emulator.close()));
});

type Kind = 'reset' | 'hang-up' | 'truncated' | 'html' | 'slow-body' | 'reset-after-handling';

async function listening(kind: Kind, count = 1): Promise<{ emulator: Emulator; port: number }> {
  const scenario: ScenarioInput = {
    version: 1,
    faults: [
      { match: { operation: 'send' }, network: kind, count, ...(kind === 'slow-body' ? { trickle: '100ms' } : {}) },
    ],
  };
  const emulator = makeEmulator({ scenario });
  open.push(emulator);
  const { port } = await emulator.listen({ port: 0 });
  return { emulator, port };
}

interface Outcome {
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Body chunks as they arrived. */
  chunks: number;
  error?: NodeJS.ErrnoException;
}

/** The fast lane serves a plain request; a repeated header sends it down hono's path (the fallback). */
function sendOver(
  port: number,
  path: 'fast lane' | 'hono',
  fields: Record<string, unknown> = { recipient: ['27831234567'], message: 'Hi' },
  extra: Record<string, string> = {},
): Promise<Outcome> {
  const body = JSON.stringify(fields);
  const headers: Record<string, string | string[]> = {
    ...extra,
    authorization: basic(apiKey),
    'content-type': 'application/json',
    signature: signRequest(fields, signingSecret),
  };
  if (path === 'hono') headers['x-repeated'] = ['1', '2'];
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let outcome: Outcome | undefined;
    const request = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: '/v1/messages', headers, agent: false },
      (response) => {
        outcome = { status: response.statusCode, headers: response.headers, body: Buffer.alloc(0), chunks: 0 };
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ ...(outcome as Outcome), body: Buffer.concat(chunks), chunks: chunks.length }),
        );
        response.on('error', (error) =>
          resolve({ ...(outcome as Outcome), body: Buffer.concat(chunks), chunks: chunks.length, error }),
        );
      },
    );
    request.on('error', (error) => resolve({ ...outcome, body: Buffer.concat(chunks), chunks: chunks.length, error }));
    request.end(body);
  });
}

const paths = ['fast lane', 'hono'] as const;

test.each(paths)(
  'reset on sends (%s): the next send fails with a connection reset, the one after succeeds, one charge',
  async (path) => {
    const { emulator, port } = await listening('reset');
    const failed = await sendOver(port, path);
    expect(failed.status).toBeUndefined();
    expect(failed.error?.code).toBe('ECONNRESET');
    expect(emulator.messages.list().total).toBe(0);
    const sent = await sendOver(port, path);
    expect(sent.status).toBe(201);
    expect(await balance(emulator)).toBe(999);
    expect(emulator.messages.list().total).toBe(1);
    const journal = emulator.requests.find({ path: '/v1/messages', method: 'POST' }).items;
    expect(journal.map((entry) => [entry.status, entry.network])).toEqual([
      [201, null],
      [0, 'reset'],
    ]);
    expect(
      emulator
        .report({ format: 'json' })
        .entries.some((entry) => entry.summary === 'injected fault on send: network reset'),
    ).toBe(true);
  },
);

test.each(paths)(
  'hang-up (%s): the connection closes without an answer and nothing is stored or charged',
  async (path) => {
    const { emulator, port } = await listening('hang-up');
    const failed = await sendOver(port, path);
    expect(failed.status).toBeUndefined();
    expect(failed.error?.message).toBe('socket hang up');
    expect(await balance(emulator)).toBe(1000);
    expect(emulator.messages.list().total).toBe(0);
    expect(emulator.requests.find({ method: 'POST' }).items[0]).toMatchObject({ status: 0, network: 'hang-up' });
  },
);

test.each(paths)('html (%s): a 502 with an HTML page, as a proxy sends; nothing stored or charged', async (path) => {
  const { emulator, port } = await listening('html');
  const failed = await sendOver(port, path);
  expect(failed.status).toBe(502);
  expect(failed.headers?.['content-type']).toMatch(/^text\/html/);
  expect(failed.body.toString()).toContain('<title>502 Bad Gateway</title>');
  expect(await balance(emulator)).toBe(1000);
  expect(emulator.messages.list().total).toBe(0);
  expect(emulator.requests.find({ method: 'POST' }).items[0]).toMatchObject({ status: 502, network: 'html' });
});

test.each(paths)(
  'truncated (%s): half the body, then the connection closes; the send happened and was charged',
  async (path) => {
    const { emulator, port } = await listening('truncated');
    const cut = await sendOver(port, path);
    expect(cut.status).toBe(201);
    const length = Number(cut.headers?.['content-length']);
    expect(cut.body.byteLength).toBe(Math.floor(length / 2));
    expect(cut.error?.message).toMatch(/aborted/);
    expect(emulator.messages.list().total).toBe(1);
    expect(await balance(emulator)).toBe(999);
    expect(emulator.requests.find({ method: 'POST' }).items[0]).toMatchObject({ status: 201, network: 'truncated' });
  },
);

test.each(paths)('slow-body (%s): the whole answer arrives in pieces; the send happened', async (path) => {
  const { emulator, port } = await listening('slow-body');
  const slow = await sendOver(port, path);
  expect(slow.error).toBeUndefined();
  expect(slow.status).toBe(201);
  expect(slow.chunks).toBeGreaterThan(1);
  expect(JSON.parse(slow.body.toString())).toMatchObject({ recipient: ['27831234567'], status: 'pending' });
  expect(emulator.messages.list().total).toBe(1);
});

test.each(paths)(
  'reset-after-handling (%s): the send is stored and charged, then the connection is reset',
  async (path) => {
    const { emulator, port } = await listening('reset-after-handling');
    const fields = { recipient: ['27831234567'], message: 'Hi', client_reference: 'order-7' };
    const failed = await sendOver(port, path, fields);
    expect(failed.status).toBeUndefined();
    expect(failed.error?.code).toBe('ECONNRESET');
    // A client retrying blindly would send twice: the first is there, found by its client_reference.
    const stored = emulator.messages.list().items;
    expect(stored.map((message) => message.client_reference)).toEqual(['order-7']);
    expect(await balance(emulator)).toBe(999);
    expect(emulator.requests.find({ method: 'POST' }).items[0]).toMatchObject({
      status: 201,
      network: 'reset-after-handling',
    });
  },
);

test('without a socket, emulator.fetch fails as fetch would: rejects for a reset or hang-up, errors half way for a truncated body', async () => {
  const scenario: ScenarioInput = {
    version: 1,
    faults: [
      { name: 'reset', enabled: false, match: { operation: 'balance' }, network: 'reset' },
      { name: 'hang-up', enabled: false, match: { operation: 'balance' }, network: 'hang-up' },
      { name: 'truncated', enabled: false, match: { operation: 'balance' }, network: 'truncated' },
      { name: 'slow-body', enabled: false, match: { operation: 'balance' }, network: 'slow-body', trickle: '50ms' },
      { name: 'html', enabled: false, match: { operation: 'balance' }, network: 'html' },
    ],
  };
  const emulator = makeEmulator({ scenario });
  const only = (name: string) =>
    emulator.scenario.set({
      ...scenario,
      faults: scenario.faults!.map((entry) => ({ ...entry, enabled: entry.name === name })),
    });
  const balanceRequest = () =>
    new Request('http://emulator.test/v1/messages/balance', { headers: { authorization: basic(apiKey) } });
  only('reset');
  await expect(emulator.fetch(balanceRequest())).rejects.toMatchObject({
    name: 'TypeError',
    message: 'fetch failed',
    cause: { code: 'ECONNRESET' },
  });
  only('hang-up');
  await expect(emulator.fetch(balanceRequest())).rejects.toMatchObject({
    message: 'fetch failed',
    cause: { code: 'UND_ERR_SOCKET' },
  });
  only('truncated');
  const cut = await emulator.fetch(balanceRequest());
  expect(cut.status).toBe(200);
  await expect(cut.text()).rejects.toMatchObject({ message: 'terminated' });
  only('slow-body');
  expect(JSON.parse(await (await emulator.fetch(balanceRequest())).text())).toMatchObject({ balance: 1000 });
  only('html');
  const page = await emulator.fetch(balanceRequest());
  expect([page.status, page.headers.get('content-type')]).toEqual([502, 'text/html']);
});

test("an account's own scenario can fail its requests' transport; other accounts are answered", async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  emulator.accounts.create({ apiKey: 'pk_test_flaky', signingSecret: 'sk_test_flaky' });
  emulator.accounts.setScenario('pk_test_flaky', { faults: [{ match: { operation: 'balance' }, network: 'html' }] });
  const balanceOf = (key: string) =>
    emulator.fetch(new Request('http://emulator.test/v1/messages/balance', { headers: { authorization: basic(key) } }));
  expect((await balanceOf('pk_test_flaky')).status).toBe(502);
  expect((await balanceOf(apiKey)).status).toBe(200);
});

test('a network fault with an error or rateLimit, or a trickle without slow-body, is refused at load', () => {
  const load = (fault: Record<string, unknown>) => () => makeEmulator({ scenario: { version: 1, faults: [fault] } });
  expect(load({ network: 'reset', error: { status: 503 } })).toThrow(
    /faults\[0\]\.network: a network fault replaces the answer/,
  );
  expect(load({ network: 'reset', rateLimit: { requests: 1, per: '1s' } })).toThrow(
    /network fault replaces the answer/,
  );
  expect(load({ network: 'truncated', trickle: '1s' })).toThrow(
    /faults\[0\]\.trickle: trickle goes with network: slow-body/,
  );
  expect(load({ network: 'teleport' })).toThrow(/faults\[0\]\.network: expected one of "reset", "hang-up"/);
});

test.each(paths)(
  'X-Emulator-Network fails one request (%s) whatever the scenario says; a bad value is refused and nothing is sent',
  async (path) => {
    const emulator = makeEmulator();
    open.push(emulator);
    const { port } = await emulator.listen({ port: 0 });
    const failed = await sendOver(port, path, undefined, { 'x-emulator-network': 'reset' });
    expect(failed.error?.code).toBe('ECONNRESET');
    const page = await sendOver(port, path, undefined, { 'x-emulator-network': 'html' });
    expect(page.status).toBe(502);
    const refused = await sendOver(port, path, undefined, { 'x-emulator-network': 'teleport' });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ message: 'INVALID_EMULATOR_HEADER' });
    expect(emulator.messages.list().total).toBe(0);
    expect(await balance(emulator)).toBe(1000);
    const slow = await sendOver(port, path, undefined, { 'x-emulator-network': 'slow-body@100ms' });
    expect([slow.status, slow.chunks > 1]).toEqual([201, true]);
    expect(emulator.requests.find({ method: 'POST' }).items.map((entry) => entry.network)).toEqual([
      'slow-body',
      null,
      'html',
      'reset',
    ]);
  },
);

test('outcomeHeader: false ignores X-Emulator-Network', async () => {
  const emulator = makeEmulator({ outcomeHeader: false });
  const response = await emulator.fetch(
    new Request('http://emulator.test/v1/messages/balance', {
      headers: { authorization: basic(apiKey), 'x-emulator-network': 'reset' },
    }),
  );
  expect(response.status).toBe(200);
});
