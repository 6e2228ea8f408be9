import { afterEach, expect, test } from 'vitest';
import { createClient, SmsApiError, type ClientOptions } from '../../src/client/index.js';
import type { EmulatorOptions } from '../../src/index.js';
import { apiKey, makeEmulator, origin, scheduleIn, signingSecret } from '../support/api.js';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

function setup(options: EmulatorOptions = {}, client: Partial<ClientOptions> = {}) {
  const emulator = makeEmulator(options);
  const sms = createClient({ baseUrl: origin, apiKey, signingSecret, fetch: emulator.fetch, ...client });
  return { emulator, sms };
}

test('send signs the body and answers the typed message', async () => {
  const { sms } = setup();
  const sent = await sms.send({ recipient: '27831234567', message: 'Hello there', client_reference: 'r-1' });
  expect(sent).toMatchObject({
    type: 'sms',
    recipient: ['27831234567'],
    message: 'Hello there',
    client_reference: 'r-1',
    status: 'pending',
    credit: 1,
  });
});

test('every failure throws SmsApiError with code, status, description and documentation link', async () => {
  const { sms } = setup({}, { signingSecret: 'wrong' });
  const error = await sms.send({ recipient: ['27831234567'], message: 'Hi' }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(SmsApiError);
  expect(error).toMatchObject({ code: 'SIGNATURE_MISMATCH', status: 400, description: expect.any(String) });
  expect((error as SmsApiError).documentationUrl).toMatch(/\/_emulator\/docs\/errors#SIGNATURE_MISMATCH$/);
});

test('reads errors wrapped in {"error": …} the same way', async () => {
  const { sms } = setup({ errorEnvelope: 'wrapped' });
  await expect(sms.get('no-such-id')).rejects.toMatchObject({ code: 'MESSAGE_NOT_FOUND', status: 404 });
});

test('schedule formats a Date as the API expects, in +02:00', async () => {
  const { sms } = setup();
  const at = new Date(Date.parse('2026-11-21T10:00:00Z') + 30 * 60_000);
  const scheduled = await sms.schedule({ recipient: ['27831234567'], message: 'Later', schedule: at });
  expect(scheduled).toMatchObject({ status: 'scheduled', credit: 0, schedule: '2026-11-21T12:30:00+02:00' });
});

test('edit, get and delete work on a scheduled message', async () => {
  const { sms } = setup();
  const scheduled = await sms.schedule({ recipient: ['27831234567'], message: 'Later', schedule: scheduleIn(30) });
  const edited = await sms.edit(scheduled.id, { message: 'Changed', schedule: scheduleIn(60) });
  expect(edited).toMatchObject({ message: 'Changed', schedule: '2026-11-21T13:00:00+02:00' });
  expect((await sms.get(scheduled.id)).message).toBe('Changed');
  expect(await sms.delete(scheduled.id)).toEqual({ status: 'successful' });
  await expect(sms.get(scheduled.id)).rejects.toMatchObject({ code: 'MESSAGE_NOT_FOUND' });
});

test('an empty list (NO_SMS_MESSAGES) is an empty page, not an error, whatever its HTTP status', async () => {
  for (const noMessagesStatus of [404, 200] as const) {
    const { sms } = setup({ noMessagesStatus });
    expect(await sms.list()).toMatchObject({ list: [], total_items: 0, total_pages: 0, page: 1 });
  }
});

test('list filters and pages; listAll walks every page', async () => {
  const { sms } = setup();
  for (let i = 1; i <= 5; i++) await sms.send({ recipient: ['27831234567'], message: `Note ${i}` });
  const page = await sms.list({ limit: 2, page: 2 });
  expect(page).toMatchObject({ page: 2, limit: 2, total_pages: 3, total_items: 5 });
  expect(page.list.map((message) => message.message)).toEqual(['Note 3', 'Note 2']);
  const all: string[] = [];
  for await (const message of sms.listAll({ limit: 2 })) all.push(message.message);
  expect(all).toEqual(['Note 5', 'Note 4', 'Note 3', 'Note 2', 'Note 1']);
  expect((await sms.list({ search: 'note 4' })).list).toHaveLength(1);
});

test('balance answers the credits; environment sandbox uses the sandbox balance', async () => {
  const { emulator, sms } = setup();
  emulator.accounts.update(apiKey, { sandbox: { balance: 7 } });
  expect((await sms.balance()).balance).toBe(1000);
  const sandbox = createClient({
    baseUrl: origin,
    apiKey,
    signingSecret,
    fetch: emulator.fetch,
    environment: 'sandbox',
  });
  expect((await sandbox.balance()).balance).toBe(7);
});

test('sends no emulator-only headers unless asked, and adds per-call headers when asked', async () => {
  const { emulator } = setup();
  const seen: string[][] = [];
  const sms = createClient({
    baseUrl: origin,
    apiKey,
    signingSecret,
    fetch: (request) => {
      seen.push([...request.headers.keys()].sort());
      return emulator.fetch(request);
    },
  });
  await sms.send({ recipient: ['27831234567'], message: 'Hi' });
  const forced = await sms.send(
    { recipient: ['27831234567'], message: 'Hi' },
    { headers: { 'X-Emulator-Outcome': 'undelivered' } },
  );
  expect(seen[0]).toEqual(['accept', 'authorization', 'content-type', 'signature']);
  expect(seen[1]).toContain('x-emulator-outcome');
  await emulator.clock.advance('10s');
  expect(emulator.messages.get(forced.id).status).toBe('undelivered');
});

test('talks to a listening emulator over the network with the global fetch', async () => {
  const emulator = makeEmulator();
  const urls = await emulator.listen({ port: 0 });
  closing.push(() => emulator.close());
  const sms = createClient({ baseUrl: urls.live, apiKey, signingSecret });
  expect((await sms.send({ recipient: ['27831234567'], message: 'Over the wire' })).status).toBe('pending');
});

test('get, edit and delete refuse an id that cannot name a message with INVALID_MESSAGE_ID before any request', async () => {
  const requested: string[] = [];
  const sms = createClient({
    baseUrl: origin,
    apiKey,
    signingSecret,
    fetch: async (request) => (requested.push(request.url), new Response('{}')),
  });
  for (const id of ['', '   ', 'balance', '.', '..', undefined as unknown as string]) {
    await expect(sms.get(id), JSON.stringify(id)).rejects.toMatchObject({ code: 'INVALID_MESSAGE_ID', status: 0 });
    await expect(sms.edit(id, { message: 'x' })).rejects.toMatchObject({
      code: 'INVALID_MESSAGE_ID',
      description: expect.stringContaining('edit needs the id'),
    });
    await expect(sms.delete(id)).rejects.toBeInstanceOf(SmsApiError);
  }
  expect(requested).toEqual([]);
});

test('a message id is sent URL-encoded, so it stays one path segment', async () => {
  const requested: string[] = [];
  const sms = createClient({
    baseUrl: origin,
    apiKey,
    signingSecret,
    fetch: async (request) => (requested.push(request.url), new Response('{"id":"x"}')),
  });
  await sms.get('a/b?c#d');
  await sms.delete('../balance');
  expect(requested).toEqual([`${origin}/v1/messages/a%2Fb%3Fc%23d`, `${origin}/v1/messages/..%2Fbalance`]);
});

test('a request that gets no answer throws NETWORK_ERROR with status 0', async () => {
  const sms = createClient({
    baseUrl: origin,
    apiKey,
    signingSecret,
    fetch: () => Promise.reject(new TypeError('fetch failed')),
  });
  await expect(sms.balance()).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
});

test('an answer that is not an API error object throws UNEXPECTED_RESPONSE with its status', async () => {
  const sms = createClient({
    baseUrl: origin,
    apiKey,
    signingSecret,
    fetch: async () => new Response('<html>bad gateway</html>', { status: 502 }),
  });
  await expect(sms.balance()).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE', status: 502 });
});

test('a 200 answer that is not a JSON object (a captive portal page, an empty body) throws UNEXPECTED_RESPONSE instead of resolving undefined', async () => {
  for (const body of ['<html>sign in to the wifi</html>', '', 'null', '42']) {
    const sms = createClient({
      baseUrl: origin,
      apiKey,
      signingSecret,
      fetch: async () => new Response(body, { status: 200 }),
    });
    await expect(sms.balance(), body).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE', status: 200 });
  }
});
