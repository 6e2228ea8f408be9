/** The control routes derived from the operations table: methods and Allow headers, waiting, filters, and hostile input. */

import { afterEach, expect, test } from 'vitest';
import { controlRouteTable } from '../../src/http/routes/control.js';
import { createWebhookCatcher } from '../../src/index.js';
import { control, makeEmulator, send } from '../support/api.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const concrete = (path: string) => path.replace(/\{\w+\}/g, 'x');

test('every control path answers a method it does not serve with 405 and an Allow header listing the table’s methods', async () => {
  const emulator = makeEmulator();
  for (const [path, ops] of controlRouteTable()) {
    const allowed: string[] = ops.map((op) => op.method);
    const wrong = methods.find((method) => !allowed.includes(method)) as string;
    const reply = await control(emulator, wrong, concrete(path));
    expect(reply.status, `${wrong} ${path}`).toBe(405);
    expect(reply.headers.get('allow'), path).toBe(allowed.join(', '));
    expect(reply.body.message).toBe('INVALID_HTTP_REQUEST_METHOD');
  }
});

test('POST /messages/{id}/replies answers after its sms-reply webhook was tried', async () => {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator({ webhookUrl: catcher.url, notifyOn: [] });
  open.push(catcher, emulator);
  const message = await send(emulator, { recipient: ['27831234567'], message: 'Coming?' });
  const reply = await control(emulator, 'POST', `/messages/${message.id}/replies`, { text: 'Yes' });
  expect(reply.status).toBe(201);
  expect(catcher.received.map((request) => request.body.type)).toEqual(['sms-reply']);
});

test('POST /webhooks/settle answers once every try in flight has ended', async () => {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator({ webhookUrl: catcher.url });
  open.push(catcher, emulator);
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  // A fire-and-forget move: the clock call is not awaited, settle is.
  void emulator.clock.move({ advance: '5s' });
  expect((await control(emulator, 'POST', '/webhooks/settle')).body).toEqual({ status: 'settled' });
  expect(catcher.received.map((request) => request.body.status)).toEqual(['submitted', 'delivered']);
  expect(emulator.webhooks.list({ state: 'pending' }).total).toBe(0);
});

test('the webhook log filters by state; the old outcome filter is refused, not ignored', async () => {
  const emulator = makeEmulator();
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('5s');
  expect((await control(emulator, 'GET', '/webhooks?state=skipped')).body.total).toBe(2);
  expect((await control(emulator, 'GET', '/webhooks?state=failed')).body.total).toBe(0);
  const old = await control(emulator, 'GET', '/webhooks?outcome=failed');
  expect(old).toMatchObject({
    status: 400,
    body: { message: 'CONTROL_INVALID_REQUEST', description: expect.stringContaining('outcome') },
  });
});

test('list paging over HTTP: bad page and limit values are CONTROL_INVALID_REQUEST', async () => {
  const emulator = makeEmulator();
  for (const query of ['limit=0', 'limit=1001', 'page=0', 'page=x', 'limit=1.5', 'page=', 'limit=1e400']) {
    const reply = await control(emulator, 'GET', `/accounts?${query}`);
    expect(reply, query).toMatchObject({ status: 400, body: { message: 'CONTROL_INVALID_REQUEST' } });
  }
  expect((await control(emulator, 'GET', '/accounts?limit=1000&page=1')).body).toMatchObject({ total: 1, limit: 1000 });
});

test('control list paging and the journal status filter refuse numbers not written in plain digits', async () => {
  const emulator = makeEmulator();
  for (const query of ['page=1e0', 'page=+1', 'limit=1.0', 'limit=%205', 'limit=0x10', 'page=01', 'limit=5%20']) {
    const reply = await control(emulator, 'GET', `/accounts?${query}`);
    expect(reply, query).toMatchObject({
      status: 400,
      body: { message: 'CONTROL_INVALID_REQUEST', description: expect.stringContaining('plain digits') },
    });
  }
  expect((await control(emulator, 'GET', '/requests?status=2e2')).body.message).toBe('CONTROL_INVALID_REQUEST');
  expect((await control(emulator, 'GET', '/requests?status=200')).status).toBe(200);
  expect(emulator.accounts.list({ page: 1, limit: 10 })).toMatchObject({ page: 1, limit: 10 });
  expect(emulator.accounts.list({ page: '2', limit: '10' })).toMatchObject({ page: 2, limit: 10 });
});

test('hostile control input gets catalogued errors, never a 500, and changes nothing', async () => {
  const emulator = makeEmulator();
  const before = JSON.stringify(emulator.snapshot());
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  const cases: [string, string, string | undefined][] = [
    ['POST', '/accounts', deep],
    ['POST', '/accounts', '{"apiKey":'],
    ['POST', '/accounts', '"pk_text"'],
    ['POST', '/accounts', '[1,2]'],
    ['POST', '/accounts', 'null'],
    ['PATCH', '/accounts/pk_test_sms_emulator', '{"live":{"balance":1e309}}'],
    [
      'PATCH',
      '/accounts/pk_test_sms_emulator',
      `{"signingSecret":${JSON.stringify('x'.repeat(1000))},"live":{"balance":-1}}`,
    ],
    ['POST', '/clock', deep],
    ['POST', '/messages/%zz/replies', '{"text":"x"}'],
    ['POST', '/messages/nope/replies', '[]'],
    ['POST', '/webhooks/chaos', '{"delayRate":2}'],
    ['POST', '/webhooks/chaos', '"fast"'],
    ['POST', '/reset', '{"account":{"$gt":""}}'],
    ['PUT', '/snapshot', deep],
    ['PUT', '/snapshot', '{}'],
    ['PUT', '/opt-outs/12?environment=moon', undefined],
    ['GET', '/messages?environment=moon', undefined],
    ['GET', '/messages?page=1&page=2&limit=abc', undefined],
    ['GET', '/requests?status=999', undefined],
    ['GET', '/requests?since=yesterday', undefined],
    ['GET', '/accounts/%E0%A4%A', undefined],
    ['POST', '/sign', '[]'],
  ];
  for (const [method, path, body] of cases) {
    const reply = await control(emulator, method, path, undefined, {});
    const withBody = body === undefined ? reply : await rawControl(emulator, method, path, body);
    expect(withBody.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
    expect(withBody.status, `${method} ${path}`).toBeLessThan(500);
    expect(typeof withBody.body.message, `${method} ${path}`).toBe('string');
  }
  expect(JSON.stringify(emulator.snapshot())).toBe(before);
});

async function rawControl(emulator: ReturnType<typeof makeEmulator>, method: string, path: string, body: string) {
  const response = await emulator.fetch(new Request(`http://emulator.test/_emulator${path}`, { method, body }));
  return { status: response.status, body: await response.json() };
}

test('a control error repeats at most 64 characters of a long id, API key or number it quotes', async () => {
  const emulator = makeEmulator();
  const long = 'x'.repeat(5000);
  const replies = [
    await control(emulator, 'GET', `/messages/${long}`),
    await control(emulator, 'GET', `/webhooks/${long}`),
    await control(emulator, 'PATCH', `/accounts/pk_${long}`, { live: { balance: 1 } }),
    await control(emulator, 'DELETE', `/accounts/pk_${long}`),
    await control(emulator, 'PUT', `/opt-outs/${long}`),
  ];
  for (const reply of replies) {
    expect(reply.body.description, reply.body.message).toMatch(/"(pk_)?x+…"/);
    expect(reply.body.description.length, reply.body.message).toBeLessThan(400);
  }
});
