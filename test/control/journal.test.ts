/** The request journal: every API request, accepted or rejected, found by filters, bounded, cleared by reset, and logged on demand. */

import { afterEach, expect, test, vi } from 'vitest';
import { apiKey, call, control, makeEmulator, send } from '../support/api.js';

afterEach(() => {
  vi.restoreAllMocks();
});

test('rejected requests are journaled with their error codes: 401s, 404, 405, signature mismatch, malformed JSON', async () => {
  const emulator = makeEmulator();
  await call(emulator, 'GET', '/v1/messages/balance', { key: false });
  await call(emulator, 'GET', '/v1/messages/balance', { key: 'pk_typo' });
  await call(emulator, 'GET', '/v1/nothing-here');
  await call(emulator, 'PUT', '/sandbox/v1/messages/balance');
  await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567'], message: 'Hi' },
    headers: { signature: 'bad' },
  });
  await call(emulator, 'POST', '/v1/messages', { raw: '{"recipient":', sign: false });
  const found = await control(emulator, 'GET', '/requests');
  expect(found.body.items.map((entry: { status: number; code: string }) => [entry.status, entry.code])).toEqual([
    [400, 'JSON_INVALID_SYNTAX'],
    [400, 'SIGNATURE_MISMATCH'],
    [405, 'INVALID_HTTP_REQUEST_METHOD'],
    [404, 'ROUTE_NOT_FOUND'],
    [401, 'INVALID_API_KEY'],
    [401, 'UNAUTHORIZED'],
  ]);
  const mismatch = (await control(emulator, 'GET', '/requests?code=SIGNATURE_MISMATCH')).body.items[0];
  expect(mismatch).toMatchObject({
    id: 'req_5',
    method: 'POST',
    path: '/v1/messages',
    environment: 'live',
    account: apiKey,
    status: 400,
    messageId: null,
    requestBody: { recipient: ['27831234567'], message: 'Hi' },
    responseBody: { message: 'SIGNATURE_MISMATCH' },
    time: '2026-11-21T12:00:00+02:00',
  });
  expect(Date.parse(mismatch.wallTime)).not.toBeNaN();
  expect(typeof mismatch.durationMs).toBe('number');
  expect((await control(emulator, 'GET', '/requests?environment=sandbox')).body.items[0]).toMatchObject({
    method: 'PUT',
    status: 405,
  });
  expect((await control(emulator, 'GET', '/requests?account=pk_typo')).body.total).toBe(1);
});

test('an accepted send is journaled with its message id, and later requests about it match the message filter', async () => {
  const emulator = makeEmulator();
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1m');
  await call(emulator, 'GET', `/v1/messages/${sent.id}`);
  await call(emulator, 'GET', '/v1/messages/balance');
  const about = emulator.requests.find({ message: sent.id });
  expect(about.items.map((entry) => [entry.method, entry.status, entry.time])).toEqual([
    ['GET', 200, '2026-11-21T12:01:00+02:00'],
    ['POST', 201, '2026-11-21T12:00:00+02:00'],
  ]);
  expect(about.items[1]?.responseBody).toMatchObject({ id: sent.id, status: 'pending' });
  expect(emulator.requests.count({ method: 'get', path: '/balance' })).toBe(1);
  expect(emulator.requests.count({ since: '2026-11-21T12:00:30+02:00' })).toBe(2);
  expect(emulator.requests.count({ since: 'req_2' })).toBe(1);
});

test('control API requests are not journaled', async () => {
  const emulator = makeEmulator();
  await control(emulator, 'GET', '/clock');
  await control(emulator, 'GET', '/nothing');
  expect(emulator.requests.count()).toBe(0);
});

test('the journal keeps the newest requestJournalLimit entries; 0 keeps none', async () => {
  const emulator = makeEmulator({ requestJournalLimit: 2 });
  for (let i = 0; i < 5; i++) await call(emulator, 'GET', `/v1/messages/balance?n=${i}`);
  expect(emulator.requests.find().items.map((entry) => [entry.id, entry.query])).toEqual([
    ['req_5', 'n=4'],
    ['req_4', 'n=3'],
  ]);
  const none = makeEmulator({ requestJournalLimit: 0 });
  await call(none, 'GET', '/v1/messages/balance');
  expect(none.requests.count()).toBe(0);
});

test('a large body is kept cut to 16 KiB and says so, whether or not the route read it', async () => {
  const emulator = makeEmulator();
  const big = `{"message":"${'x'.repeat(40_000)}"}`;
  await call(emulator, 'POST', '/v1/messages', { raw: big, sign: false });
  await call(emulator, 'POST', '/v1/messages', { raw: big, key: false });
  for (const entry of emulator.requests.find().items) {
    expect(typeof entry.requestBody).toBe('string');
    expect(entry.requestBody).toMatch(/^\{"message":"x{100}/);
    expect(entry.requestBody).toContain('[truncated');
    expect((entry.requestBody as string).length).toBeLessThan(17_000);
  }
});

test('a body refused as too large is journaled too, whether its Content-Length said so or it streamed past the limit', async () => {
  const emulator = makeEmulator({ maxBodySize: 100 });
  const body = JSON.stringify({ message: 'x'.repeat(200) });
  const declared = await call(emulator, 'POST', '/v1/messages', {
    raw: body,
    headers: { 'content-length': String(body.length) },
  });
  const streamed = await call(emulator, 'POST', '/sandbox/v1/messages', { raw: body });
  expect([declared.status, streamed.status]).toEqual([413, 413]);
  const found = await control(emulator, 'GET', '/requests?code=PAYLOAD_TOO_LARGE');
  expect(found.body.items.map((entry: { path: string; status: number }) => [entry.path, entry.status])).toEqual([
    ['/sandbox/v1/messages', 413],
    ['/v1/messages', 413],
  ]);
});

test('reset empties the journal; resetting one account drops only its entries', async () => {
  const emulator = makeEmulator();
  emulator.accounts.create({ apiKey: 'pk_other' });
  await call(emulator, 'GET', '/v1/messages/balance');
  await call(emulator, 'GET', '/v1/messages/balance', { key: 'pk_other' });
  emulator.reset({ account: 'pk_other' });
  expect(emulator.requests.find().items.map((entry) => entry.account)).toEqual([apiKey]);
  emulator.reset();
  expect(emulator.requests.count()).toBe(0);
  await call(emulator, 'GET', '/v1/messages/balance');
  expect(emulator.requests.find().items[0]?.id).toBe('req_1');
});

test('--log-requests prints one text line per request; json prints the entry; off prints nothing', async () => {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  await call(makeEmulator(), 'GET', '/v1/messages/balance', { key: 'pk_typo' });
  expect(write).not.toHaveBeenCalled();
  await call(makeEmulator({ logRequests: true }), 'GET', '/v1/messages/balance', { key: 'pk_typo' });
  expect(write).toHaveBeenCalledTimes(1);
  expect(String(write.mock.calls[0]?.[0])).toMatch(
    /^2026-11-21T12:00:00\+02:00 GET \/v1\/messages\/balance 401 INVALID_API_KEY live pk_typo [\d.]+ms\n$/,
  );
  await call(makeEmulator({ logRequests: true, logFormat: 'json' }), 'GET', '/sandbox/v1/messages/balance');
  expect(JSON.parse(String(write.mock.calls[1]?.[0]))).toMatchObject({
    id: 'req_1',
    environment: 'sandbox',
    status: 200,
    code: null,
  });
});

test('--log-requests text lines show control characters of a path or API key escaped, so a request cannot forge a line', async () => {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const emulator = makeEmulator({ logRequests: true });
  await call(emulator, 'GET', '/v1/messages/x%0A2026-11-21T12:00:00+02:00%20POST%20/v1/messages%20201', {
    key: 'pk_a\r\nforged',
  });
  const line = String(write.mock.calls[0]?.[0]);
  expect(line.split('\n')).toHaveLength(2);
  expect(line).toContain('/v1/messages/x\\x0a2026');
  expect(line).toContain('pk_a\\x0d\\x0aforged');
});
