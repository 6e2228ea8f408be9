import { expect, test } from 'vitest';
import { apiKey, balance, call, control, makeEmulator, scheduleIn, send } from '../support/api.js';

test('health answers 200', async () => {
  expect(await control(makeEmulator(), 'GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
});

test('the clock can be read, advanced by a duration, set to an instant, and switched in mode and speed', async () => {
  const emulator = makeEmulator();
  expect((await control(emulator, 'GET', '/clock')).body).toMatchObject({
    mode: 'manual',
    time: '2026-11-21T12:00:00+02:00',
  });
  expect((await control(emulator, 'POST', '/clock', { advance: '90s' })).body.time).toBe('2026-11-21T12:01:30+02:00');
  expect((await control(emulator, 'POST', '/clock', { advance: 500 })).body.now).toBe(
    Date.parse('2026-11-21T10:01:30.500Z'),
  );
  expect((await control(emulator, 'POST', '/clock', { set: '2026-11-22T08:00:00+02:00' })).body.time).toBe(
    '2026-11-22T08:00:00+02:00',
  );
  expect((await control(emulator, 'POST', '/clock', { mode: 'realtime', speed: 10 })).body).toMatchObject({
    mode: 'realtime',
    speed: 10,
  });
  await emulator.close();
});

test('moving the clock backwards or with a bad duration is refused and changes nothing', async () => {
  const emulator = makeEmulator();
  const back = await control(emulator, 'POST', '/clock', { set: '2026-11-20T00:00:00Z' });
  expect(back).toMatchObject({ status: 400, body: { message: 'CLOCK_BACKWARDS' } });
  const bad = await control(emulator, 'POST', '/clock', { advance: 'soon' });
  expect(bad).toMatchObject({
    status: 400,
    body: { message: 'CONTROL_INVALID_REQUEST', description: expect.stringContaining('advance') },
  });
  expect((await control(emulator, 'GET', '/clock')).body.time).toBe('2026-11-21T12:00:00+02:00');
});

test('accounts can be created, read, changed (balance set and added, webhook URL) and deleted', async () => {
  const emulator = makeEmulator();
  const created = await control(emulator, 'POST', '/accounts', {
    apiKey: 'pk_team',
    signingSecret: 'team-secret',
    balance: 50,
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    apiKey: 'pk_team',
    live: { balance: 50, webhookUrl: null },
    sandbox: { balance: 50 },
  });
  expect(await balance(emulator, 'live', 'pk_team')).toBe(50);
  const changed = await control(emulator, 'PATCH', '/accounts/pk_team', {
    live: { addBalance: 25, webhookUrl: 'http://127.0.0.1:9/hook' },
    sandbox: { balance: 5 },
  });
  expect(changed.body).toMatchObject({
    live: { balance: 75, webhookUrl: 'http://127.0.0.1:9/hook' },
    sandbox: { balance: 5 },
  });
  expect((await control(emulator, 'GET', '/accounts')).body.items.map((a: { apiKey: string }) => a.apiKey)).toEqual([
    apiKey,
    'pk_team',
  ]);
  expect((await control(emulator, 'DELETE', '/accounts/pk_team')).status).toBe(204);
  expect((await call(emulator, 'GET', '/v1/messages/balance', { key: 'pk_team' })).body.message).toBe(
    'INVALID_API_KEY',
  );
  expect((await control(emulator, 'GET', '/accounts/pk_team')).status).toBe(404);
});

test('bad account input is refused with a message naming the field, and changes nothing', async () => {
  const emulator = makeEmulator();
  expect((await control(emulator, 'POST', '/accounts', { apiKey: 'team' })).body.description).toContain('apiKey');
  expect((await control(emulator, 'POST', '/accounts', { apiKey })).status).toBe(409);
  expect(
    (await control(emulator, 'PATCH', `/accounts/${apiKey}`, { live: { addBalance: -5000 } })).body.description,
  ).toContain('below 0');
  expect((await control(emulator, 'PATCH', `/accounts/${apiKey}`, { colour: 'red' })).body.description).toContain(
    'colour',
  );
  expect((await control(emulator, 'POST', '/accounts', '{not json')).status).toBe(400);
  expect(await balance(emulator)).toBe(1000);
  expect(emulator.accounts.list().items).toHaveLength(1);
});

test('an API key no Basic header can carry (a colon, a control character) or a webhook URL that is not http(s), or whose password is the mask views show, is refused everywhere it can be given', async () => {
  const emulator = makeEmulator();
  for (const key of ['pk_a:b', 'pk_\u0007']) {
    expect((await control(emulator, 'POST', '/accounts', { apiKey: key })).body.message, key).toBe(
      'CONTROL_INVALID_REQUEST',
    );
    expect(() => makeEmulator({ apiKey: key }), key).toThrow(/apiKey/);
    expect(() => emulator.scenario.set({ version: 1, accounts: [{ apiKey: key }] }), key).toThrow(/apiKey/);
  }
  for (const url of [
    'ftp://127.0.0.1/hooks',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'http://u:***@127.0.0.1/h',
  ]) {
    expect(
      (await control(emulator, 'POST', '/accounts', { apiKey: 'pk_team', webhookUrl: url })).body.message,
      url,
    ).toBe('CONTROL_INVALID_REQUEST');
    expect(
      (await control(emulator, 'PATCH', `/accounts/${apiKey}`, { live: { webhookUrl: url } })).body.message,
      url,
    ).toBe('CONTROL_INVALID_REQUEST');
    expect(() => makeEmulator({ webhookUrl: url }), url).toThrow(/webhookUrl/);
    expect(() => emulator.scenario.set({ version: 1, timeline: [{ at: '1m', webhookUrl: { url } }] }), url).toThrow(
      /url/,
    );
  }
  expect(emulator.accounts.list().items.map((account) => [account.apiKey, account.live.webhookUrl])).toEqual([
    [apiKey, null],
  ]);
  expect(
    (await control(emulator, 'POST', '/accounts', { apiKey: 'pk_team', webhookUrl: 'https://hooks.example.test/sms' }))
      .status,
  ).toBe(201);
});

test('messages of both environments can be listed and read with legs and full history', async () => {
  const emulator = makeEmulator();
  const live = await send(emulator, { recipient: ['27831234567', '27831234568'], message: 'Live' });
  await send(emulator, { recipient: ['27831234567'], message: 'Sandbox' }, 'sandbox');
  await emulator.clock.advance('1s');
  const all = (await control(emulator, 'GET', '/messages')).body.items;
  expect(all.map((m: { environment: string }) => m.environment).sort()).toEqual(['live', 'sandbox']);
  expect((await control(emulator, 'GET', '/messages?environment=sandbox')).body.items).toHaveLength(1);
  const one = (await control(emulator, 'GET', `/messages/${live.id}`)).body;
  expect(one).toMatchObject({ id: live.id, environment: 'live', account: apiKey, status: 'submitted' });
  expect(one.legs[0]).toEqual({
    recipient: '27831234567',
    status: 'submitted',
    history: [
      { status: 'pending', at: '2026-11-21T12:00:00+02:00' },
      { status: 'submitted', at: '2026-11-21T12:00:01+02:00' },
    ],
    upcoming: [{ status: 'delivered', at: '2026-11-21T12:00:05+02:00' }],
  });
  expect((await control(emulator, 'GET', '/messages/nope')).body.message).toBe('CONTROL_NOT_FOUND');
});

test('an injected reply has the documented shape, is stored, and is not listed by the API', async () => {
  const emulator = makeEmulator();
  const message = await send(emulator, {
    recipient: ['27831234567'],
    message: 'Coming?',
    client_reference: 'invite-9',
  });
  await emulator.clock.advance('1m');
  const reply = await control(emulator, 'POST', `/messages/${message.id}/replies`, {
    from: '27831234567',
    text: 'Yes!',
  });
  expect(reply.status).toBe(201);
  expect(reply.body).toMatchObject({
    type: 'sms-reply',
    recipient: ['27831234567'],
    message: 'Yes!',
    client_reference: 'invite-9',
    status: 'delivered',
    credit: 0,
    creation_date: '2026-11-21T12:01:00+02:00',
    delivery_date: '2026-11-21T12:01:00+02:00',
    in_reply_to: message.id,
  });
  expect(reply.body.id).not.toBe(message.id);
  expect((await control(emulator, 'GET', '/replies')).body.items).toHaveLength(1);
  expect((await call(emulator, 'GET', '/v1/messages')).body.total_items).toBe(1);
  expect(
    (await control(emulator, 'POST', `/messages/${message.id}/replies`, { from: '27839999999', text: 'Who?' })).status,
  ).toBe(400);
});

test('reset returns everything to the start state', async () => {
  const emulator = makeEmulator();
  const first = await send(emulator, { recipient: ['27831234567'], message: 'one' });
  emulator.accounts.create({ apiKey: 'pk_extra' });
  await emulator.clock.advance('1h');
  expect((await control(emulator, 'POST', '/reset')).status).toBe(200);
  expect(emulator.messages.list().items).toEqual([]);
  expect(emulator.accounts.list().items.map((a) => a.apiKey)).toEqual([apiKey]);
  expect(await balance(emulator)).toBe(1000);
  expect(emulator.clock.state().time).toBe('2026-11-21T12:00:00+02:00');
  expect((await send(emulator, { recipient: ['27831234567'], message: 'one' })).id).toBe(first.id);
});

test('reset of one account restores its start balance and drops its messages, leaving others alone', async () => {
  const emulator = makeEmulator();
  emulator.accounts.create({ apiKey: 'pk_other', signingSecret: 'o' });
  await send(emulator, { recipient: ['27831234567'], message: 'mine' });
  await send(emulator, { recipient: ['27831234567'], message: 'theirs' }, 'live', 'pk_other', 'o');
  await control(emulator, 'POST', '/reset', { account: apiKey });
  expect(await balance(emulator)).toBe(1000);
  expect(emulator.messages.list().items.map((m) => m.account)).toEqual(['pk_other']);
});

test('a snapshot exported and imported again round-trips exactly, pending work included', async () => {
  const emulator = makeEmulator();
  await send(emulator, { recipient: ['27831234567'], message: 'sent', client_reference: 'a' });
  const scheduled = await send(emulator, { recipient: ['27831234568'], message: 'later', schedule: scheduleIn(30) });
  await send(emulator, { recipient: ['27831234567'], message: 'sandbox' }, 'sandbox');
  emulator.accounts.create({ apiKey: 'pk_second', balance: 3, webhookUrl: 'http://127.0.0.1:9/x' });
  await emulator.clock.advance('2s');
  const exported = (await control(emulator, 'GET', '/snapshot')).body;

  const copy = makeEmulator({ seed: 'another' });
  expect((await control(copy, 'PUT', '/snapshot', exported)).status).toBe(200);
  expect((await control(copy, 'GET', '/snapshot')).body).toEqual(exported);
  expect(JSON.stringify(copy.snapshot())).toBe(JSON.stringify(emulator.snapshot()));

  await copy.clock.advance('31m');
  await emulator.clock.advance('31m');
  expect(copy.messages.get(scheduled.id).status).toBe('delivered');
  expect(JSON.stringify(copy.snapshot())).toBe(JSON.stringify(emulator.snapshot()));
  const next = [
    await send(copy, { recipient: ['27831234567'], message: 'n' }),
    await send(emulator, { recipient: ['27831234567'], message: 'n' }),
  ];
  expect(next[0].id).toBe(next[1].id);
});

test('a bad snapshot is refused and changes nothing', async () => {
  const emulator = makeEmulator();
  await send(emulator, { recipient: ['27831234567'], message: 'keep me' });
  const before = JSON.stringify(emulator.snapshot());
  expect((await control(emulator, 'PUT', '/snapshot', { version: 2 })).body.message).toBe('CONTROL_INVALID_REQUEST');
  const orphan = { ...emulator.snapshot(), accounts: [] };
  expect((await control(emulator, 'PUT', '/snapshot', orphan)).body.description).toContain('does not define');
  expect(JSON.stringify(emulator.snapshot())).toBe(before);
});

test('with a control token the control API requires it as a bearer token; health stays open', async () => {
  const emulator = makeEmulator({ controlToken: 's3cret' });
  expect((await control(emulator, 'GET', '/clock')).body.message).toBe('CONTROL_UNAUTHORIZED');
  expect((await control(emulator, 'GET', '/clock', undefined, { authorization: 'Bearer wrong' })).status).toBe(401);
  expect((await control(emulator, 'GET', '/clock', undefined, { authorization: 'Bearer s3cret' })).status).toBe(200);
  expect((await control(emulator, 'GET', '/health')).status).toBe(200);
  expect((await call(emulator, 'GET', '/v1/messages/balance')).status).toBe(200);
});

test('the control token is taken with the auth scheme in any case, as HTTP auth schemes are case-insensitive', async () => {
  const emulator = makeEmulator({ controlToken: 's3cret' });
  for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
    expect(
      (await control(emulator, 'GET', '/clock', undefined, { authorization: `${scheme} s3cret` })).status,
      scheme,
    ).toBe(200);
  }
  expect((await control(emulator, 'GET', '/clock', undefined, { authorization: 'Basic s3cret' })).status).toBe(401);
});

test('a wrong method on a control route is 405 with Allow', async () => {
  const reply = await control(makeEmulator(), 'DELETE', '/clock');
  expect(reply.status).toBe(405);
  expect(reply.headers.get('allow')).toBe('GET, POST');
});

test('the sign helper returns the string to sign and the Signature a send accepts', async () => {
  const emulator = makeEmulator();
  const fields = { recipient: ['27831234567'], message: 'Hello from curl' };
  const signed = await control(emulator, 'POST', '/sign', fields);
  expect(signed.body.string_to_sign).toBe('message=Hello%20from%20curl&recipient[]=27831234567');
  const reply = await call(emulator, 'POST', '/v1/messages', {
    body: fields,
    headers: { signature: signed.body.signature },
  });
  expect(reply.status).toBe(201);
  expect((await control(emulator, 'POST', '/sign?account=pk_nobody', fields)).status).toBe(404);
});
