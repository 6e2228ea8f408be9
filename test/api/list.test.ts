import { expect, test } from 'vitest';
import { call, makeEmulator, origin, send } from '../support/api.js';

async function seeded(count: number) {
  const emulator = makeEmulator();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const recipient = i % 2 === 0 ? '27831110000' : '27832220000';
    ids.push((await send(emulator, { recipient: [recipient], message: i % 3 === 0 ? `Promo ${i}` : `Hello ${i}` })).id);
  }
  return { emulator, ids };
}

test('lists newest first with page, limit, totals and a default page size of 10', async () => {
  const { emulator, ids } = await seeded(12);
  const reply = await call(emulator, 'GET', '/v1/messages');
  expect(reply.status).toBe(200);
  expect(reply.body).toMatchObject({
    page: 1,
    limit: 10,
    total_pages: 2,
    total_items: 12,
    documentation_url: `${origin}/_emulator/docs/messages#list-messages`,
  });
  expect(reply.body.list.map((m: { id: string }) => m.id)).toEqual(ids.slice().reverse().slice(0, 10));
  expect(reply.body.list[0]).not.toHaveProperty('documentation_url');
});

test('self, next and last links carry page and keep the other parameters', async () => {
  const { emulator } = await seeded(12);
  const reply = await call(emulator, 'GET', '/v1/messages?limit=5&search=hello');
  expect(reply.body._links).toEqual({
    self: { href: `${origin}/v1/messages?limit=5&search=hello&page=1`, method: 'GET' },
    next: { href: `${origin}/v1/messages?limit=5&search=hello&page=2`, method: 'GET' },
    last: { href: `${origin}/v1/messages?limit=5&search=hello&page=2`, method: 'GET' },
  });
  const last = await call(emulator, 'GET', '/v1/messages?limit=5&search=hello&page=2');
  expect(last.body.list).toHaveLength(3);
  expect(last.body._links).not.toHaveProperty('next');
});

test('the last page holds the remainder; the page after it is NO_SMS_MESSAGES', async () => {
  const { emulator, ids } = await seeded(25);
  const page3 = await call(emulator, 'GET', '/v1/messages?page=3');
  expect(page3.body.list.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 5).reverse());
  const page4 = await call(emulator, 'GET', '/v1/messages?page=4');
  expect(page4.status).toBe(404);
  expect(page4.body.message).toBe('NO_SMS_MESSAGES');
});

test('limit above 100 is served as 100; limit and page must be whole numbers of at least 1', async () => {
  const { emulator } = await seeded(3);
  expect((await call(emulator, 'GET', '/v1/messages?limit=500')).body.limit).toBe(100);
  expect((await call(emulator, 'GET', '/v1/messages?limit=1')).body).toMatchObject({ limit: 1, total_pages: 3 });
  for (const query of ['limit=0', 'limit=abc', 'page=-1', 'page=1.5']) {
    const reply = await call(emulator, 'GET', `/v1/messages?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe('INVALID_QUERY_PARAMETER');
  }
});

test('page and limit must be written in plain digits: 1e3, +1, 1.0, spaces, hex and leading zeros are INVALID_QUERY_PARAMETER', async () => {
  const { emulator } = await seeded(3);
  for (const query of [
    'page=1e0',
    'page=+1',
    'limit=1.0',
    'limit=%205',
    'limit=5%20',
    'limit=0x10',
    'page=01',
    'limit=1e3',
    'page=1_0',
  ]) {
    const reply = await call(emulator, 'GET', `/v1/messages?${query}`);
    expect(reply, query).toMatchObject({
      status: 400,
      body: { message: 'INVALID_QUERY_PARAMETER', description: expect.stringContaining('plain digits') },
    });
  }
  expect((await call(emulator, 'GET', '/v1/messages?page=1&limit=10')).body).toMatchObject({
    page: 1,
    limit: 10,
    total_items: 3,
  });
});

test('an error repeats at most 64 characters of a bad query value', async () => {
  const { emulator } = await seeded(1);
  for (const name of ['page', 'status']) {
    const reply = await call(emulator, 'GET', `/v1/messages?${name}=${'x'.repeat(5000)}`);
    expect(reply.body.description, name).toContain(`"${'x'.repeat(64)}…"`);
    expect(reply.body.description.length, name).toBeLessThan(400);
  }
});

test('recipient matches partial numbers, search looks only at the text, status filters', async () => {
  const { emulator } = await seeded(6);
  expect((await call(emulator, 'GET', '/v1/messages?recipient=32220')).body.total_items).toBe(3);
  expect((await call(emulator, 'GET', '/v1/messages?recipient=27831110000')).body.total_items).toBe(3);
  expect((await call(emulator, 'GET', '/v1/messages?search=promo')).body.total_items).toBe(2);
  expect((await call(emulator, 'GET', '/v1/messages?search=2783')).status).toBe(404);
  expect((await call(emulator, 'GET', '/v1/messages?status=pending')).body.total_items).toBe(6);
  expect((await call(emulator, 'GET', '/v1/messages?status=delivered')).body?.message).toBe('NO_SMS_MESSAGES');
  expect((await call(emulator, 'GET', '/v1/messages?status=staged')).body?.message).toBe('NO_SMS_MESSAGES');
});

test('a status filter outside the allowed values is INVALID_QUERY_PARAMETER naming them', async () => {
  const { emulator } = await seeded(1);
  const reply = await call(emulator, 'GET', '/v1/messages?status=bogus');
  expect(reply).toMatchObject({
    status: 400,
    body: { message: 'INVALID_QUERY_PARAMETER', description: expect.stringContaining('delivered, undelivered') },
  });
  expect((await call(emulator, 'GET', '/sandbox/v1/messages?status=deleted')).status).toBe(400);
});

test('noMessagesStatus 200 answers an empty list with 200 and the same body', async () => {
  const reply = await call(makeEmulator({ noMessagesStatus: 200 }), 'GET', '/v1/messages');
  expect(reply.status).toBe(200);
  expect(reply.body.message).toBe('NO_SMS_MESSAGES');
});

test('deleted messages leave the list', async () => {
  const emulator = makeEmulator();
  const later = new Date(Date.parse('2026-11-21T10:40:00Z')).toISOString().slice(0, 16) + 'Z';
  const message = await send(emulator, { recipient: ['27831234567'], message: 'Soon gone', schedule: later });
  await call(emulator, 'DELETE', `/v1/messages/${message.id}`);
  expect((await call(emulator, 'GET', '/v1/messages')).body.message).toBe('NO_SMS_MESSAGES');
});

test('search and recipient filters follow sends, edits and deletes made after an earlier query', async () => {
  const { emulator } = await seeded(4);
  const ids = (path: string) =>
    call(emulator, 'GET', path).then((reply) => (reply.body.list ?? []).map((m: { id: string }) => m.id));
  expect(await ids('/v1/messages?search=fresh')).toEqual([]);
  const later = await send(emulator, {
    recipient: ['27839990000'],
    message: 'Not yet',
    schedule: '2026-11-21T14:00:00+02:00',
  });
  const fresh = await send(emulator, { recipient: ['27838880000'], message: 'A FRESH one' });
  expect(await ids('/v1/messages?search=fresh')).toEqual([fresh.id]);
  expect(await ids('/v1/messages?recipient=3999')).toEqual([later.id]);

  await call(emulator, 'PATCH', `/v1/messages/${later.id}`, {
    body: { message: 'Fresh after all', recipient: ['27837770000'] },
  });
  expect(await ids('/v1/messages?search=fresh')).toEqual([fresh.id, later.id]);
  expect(await ids('/v1/messages?recipient=3999')).toEqual([]);
  expect(await ids('/v1/messages?recipient=3777')).toEqual([later.id]);

  await call(emulator, 'DELETE', `/v1/messages/${later.id}`);
  const newest = await send(emulator, { recipient: ['27837770001'], message: 'fresh again' });
  expect(await ids('/v1/messages?search=fresh')).toEqual([newest.id, fresh.id]);
  expect(await ids('/v1/messages?recipient=3777')).toEqual([newest.id]);
});

test('a search holding any character, a NUL included, matches only messages whose text contains it', async () => {
  const { emulator } = await seeded(3);
  const odd = await send(emulator, { recipient: ['27831230000'], message: 'tab\there, 50%' });
  for (const needle of ['\u0000', 'e\u0000', ',', '%', '\t']) {
    const reply = await call(emulator, 'GET', `/v1/messages?search=${encodeURIComponent(needle)}`);
    expect(reply.body.list?.map((m: { id: string }) => m.id) ?? [], JSON.stringify(needle)).toEqual(
      needle.includes('\u0000') ? [] : [odd.id],
    );
  }
  expect((await call(emulator, 'GET', '/v1/messages?recipient=0000,2783')).status).toBe(404);
});
