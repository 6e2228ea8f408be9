import { expect, test } from 'vitest';
import { balance, call, makeEmulator, send } from '../support/api.js';

test('the sandbox uses the same keys but its own balance and messages', async () => {
  const emulator = makeEmulator();
  const live = await send(emulator, { recipient: ['27831234567'], message: 'live one' }, 'live');
  const sandbox = await send(
    emulator,
    { recipient: ['27831234567'], message: 'sandbox one', client_reference: 'sb' },
    'sandbox',
  );
  await send(emulator, { recipient: ['27831234567'], message: 'sandbox two' }, 'sandbox');
  expect(await balance(emulator, 'live')).toBe(999);
  expect(await balance(emulator, 'sandbox')).toBe(998);
  expect((await call(emulator, 'GET', `/sandbox/v1/messages/${live.id}`)).body.message).toBe('MESSAGE_NOT_FOUND');
  expect((await call(emulator, 'GET', `/v1/messages/${sandbox.id}`)).body.message).toBe('MESSAGE_NOT_FOUND');
  expect((await call(emulator, 'GET', '/v1/messages')).body.total_items).toBe(1);
  expect((await call(emulator, 'GET', '/sandbox/v1/messages')).body.total_items).toBe(2);
  expect(sandbox._links.self.href).toContain('/sandbox/v1/messages/');
});

test('the sandbox still requires authentication', async () => {
  const reply = await call(makeEmulator(), 'GET', '/sandbox/v1/messages/balance', { key: false });
  expect(reply.status).toBe(401);
});

test('a balance change in one environment leaves the other alone', async () => {
  const emulator = makeEmulator();
  emulator.accounts.update('pk_test_sms_emulator', { sandbox: { balance: 3 } });
  expect(await balance(emulator, 'sandbox')).toBe(3);
  expect(await balance(emulator, 'live')).toBe(1000);
});
