import { expect, test, vi } from 'vitest';
import { balance, call, makeEmulator, scheduleIn, send } from '../support/api.js';

test('a send costs segments × recipients', async () => {
  const emulator = makeEmulator();
  const message = await send(emulator, {
    recipient: ['27831234567', '27831234568', '27831234569'],
    message: 'x'.repeat(200),
  });
  expect(message.credit).toBe(6);
  expect(await balance(emulator)).toBe(994);
});

test('UCS-2 text costs more segments than GSM-7 text of the same length', async () => {
  const emulator = makeEmulator();
  expect((await send(emulator, { recipient: ['27831234567'], message: 'a'.repeat(100) })).credit).toBe(1);
  expect((await send(emulator, { recipient: ['27831234567'], message: 'ê'.repeat(100) })).credit).toBe(2);
});

test('pricing per-message charges one credit per recipient', async () => {
  const emulator = makeEmulator({ pricing: 'per-message' });
  expect((await send(emulator, { recipient: ['27831234567', '27831234568'], message: 'x'.repeat(300) })).credit).toBe(
    2,
  );
});

test('a send with a malformed recipient is refused and still charged, never below zero', async () => {
  const emulator = makeEmulator({ balance: 5 });
  const reply = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567', '0831234567'], message: 'x'.repeat(200) },
  });
  expect(reply.body.message).toBe('INVALID_RECIPIENT_ENTRY');
  expect(await balance(emulator)).toBe(1);
  await call(emulator, 'POST', '/v1/messages', { body: { recipient: ['bad'], message: 'x'.repeat(200) } });
  expect(await balance(emulator)).toBe(0);
  expect(emulator.messages.list().items).toEqual([]);
});

test('chargeRejectedRecipients false refuses a malformed recipient without charging', async () => {
  const emulator = makeEmulator({ chargeRejectedRecipients: false });
  await call(emulator, 'POST', '/v1/messages', { body: { recipient: ['0831234567'], message: 'Hi' } });
  expect(await balance(emulator)).toBe(1000);
});

test('a schedule is checked against the balance but not charged', async () => {
  const emulator = makeEmulator({ balance: 1 });
  const refused = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567', '27831234568'], message: 'Hi', schedule: scheduleIn(30) },
  });
  expect(refused.status).toBe(402);
  expect(refused.body.message).toBe('INSUFFICIENT_BALANCE');
  await send(emulator, { recipient: ['27831234567'], message: 'Hi', schedule: scheduleIn(30) });
  expect(await balance(emulator)).toBe(1);
});

test('checkBalanceOnSchedule false accepts a schedule the balance does not cover', async () => {
  const emulator = makeEmulator({ balance: 0, checkBalanceOnSchedule: false });
  expect((await send(emulator, { recipient: ['27831234567'], message: 'Hi', schedule: scheduleIn(30) })).status).toBe(
    'scheduled',
  );
});

test('many concurrent sends against a small balance never take it below zero', async () => {
  const emulator = makeEmulator({ balance: 7 });
  const replies = await Promise.all(
    Array.from({ length: 50 }, () =>
      call(emulator, 'POST', '/v1/messages', { body: { recipient: ['27831234567'], message: 'race' } }),
    ),
  );
  const statuses = replies.map((reply) => reply.status);
  expect(statuses.filter((status) => status === 201)).toHaveLength(7);
  expect(statuses.filter((status) => status === 402)).toHaveLength(43);
  expect(await balance(emulator)).toBe(0);
});

test('concurrent sends over real sockets keep the balance exact', async () => {
  const emulator = makeEmulator({ balance: 10 });
  const { origin } = await emulator.listen({ port: 0 });
  try {
    const { signRequest } = await import('../../src/index.js');
    const body = { recipient: ['27831234567', '27831234568'], message: 'socket race' };
    const headers = {
      authorization: `Basic ${Buffer.from('pk_test_sms_emulator:').toString('base64')}`,
      'content-type': 'application/json',
      signature: signRequest(body, 'sk_test_sms_emulator'),
    };
    const statuses = await Promise.all(
      Array.from(
        { length: 30 },
        async () =>
          (await fetch(`${origin}/v1/messages`, { method: 'POST', headers, body: JSON.stringify(body) })).status,
      ),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(emulator.accounts.get('pk_test_sms_emulator').live.balance).toBe(0);
  } finally {
    await emulator.close();
  }
});

test('a malformed recipient with a huge text is charged at most what the longest allowed text would cost', async () => {
  const emulator = makeEmulator();
  const reply = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567', 'bad'], message: 'x'.repeat(100_000) },
  });
  expect(reply.body.message).toBe('INVALID_RECIPIENT_ENTRY');
  // 440 GSM-7 characters are 3 segments; two recipients.
  expect(await balance(emulator)).toBe(1000 - 6);
});

test('a send that fails after validation (here its outcome decider throws) is not charged', async () => {
  const emulator = makeEmulator();
  emulator.setOutcomeDecider(() => {
    throw new Error('decider bug');
  });
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const reply = await call(emulator, 'POST', '/v1/messages', { body: { recipient: ['27831234567'], message: 'x' } });
  error.mockRestore();
  expect(reply.status).toBe(500);
  expect(await balance(emulator)).toBe(1000);
  expect(emulator.messages.list().items).toEqual([]);
});
