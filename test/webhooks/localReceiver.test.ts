/** Webhooks delivered to a receiver in the emulator's own process: no socket, every rule of a try kept. */

import { expect, test } from 'vitest';
import { makeEmulator, send } from '../support/api.js';

test('a local receiver gets signed posts with the try number, and a 500 is re-attempted as over HTTP', async () => {
  const emulator = makeEmulator({
    webhookUrl: 'http://hooks.test/in',
    webhookSigningSecret: 'whsec_local',
    notifyOn: ['submitted'],
  });
  const seen: { attempt: string | undefined; signature: string | undefined; status: string }[] = [];
  const answers = [500, 200];
  emulator.receiveWebhooksLocally('http://hooks.test/', ({ headers, body }) => {
    seen.push({
      attempt: headers['x-emulator-attempt'],
      signature: headers['webhook-signature'],
      status: JSON.parse(body).status,
    });
    return answers.shift() ?? 200;
  });
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');

  expect(seen.map(({ attempt, status }) => [attempt, status])).toEqual([
    ['1', 'submitted'],
    ['2', 'submitted'],
  ]);
  expect(seen[0]?.signature).toMatch(/^[0-9a-f]{64}$/);
  const [event] = emulator.webhooks.list().items;
  expect(event?.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
  expect(event?.state).toBe('delivered');
  await emulator.close();
});

test('a local receiver that never answers times out like a hanging socket, and one that throws is a failed try', async () => {
  const emulator = makeEmulator({
    webhookUrl: 'http://hooks.test/in',
    webhookTimeout: '50ms',
    webhookRetries: 1,
    notifyOn: ['submitted'],
  });
  let calls = 0;
  emulator.receiveWebhooksLocally('http://hooks.test/', () => {
    calls += 1;
    if (calls === 1) return new Promise<number>(() => {});
    throw new Error('the app crashed');
  });
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');

  const [event] = emulator.webhooks.list().items;
  expect(event?.attempts.map((attempt) => attempt.error)).toEqual([
    'timeout after 50 ms',
    'receiver failed: the app crashed',
  ]);
  expect(event?.state).toBe('failed');
  await emulator.close();
});

test('only URLs under the prefix are taken locally, and stopping it sends them over HTTP again', async () => {
  // Nothing listens on port 9: a post that crosses a socket is refused there.
  const emulator = makeEmulator({
    webhookUrl: 'http://127.0.0.1:9/elsewhere',
    webhookRetries: 0,
    notifyOn: ['submitted'],
  });
  let local = 0;
  const stop = emulator.receiveWebhooksLocally('http://127.0.0.1:9/local/', () => (local += 1) && 200);
  await send(emulator, { recipient: ['27831234567'], message: 'Not for the prefix' });
  await emulator.clock.advance('1s');
  emulator.accounts.update('pk_test_sms_emulator', { live: { webhookUrl: 'http://127.0.0.1:9/local/in' } });
  await send(emulator, { recipient: ['27831234567'], message: 'Taken locally' });
  await emulator.clock.advance('1s');
  stop();
  await send(emulator, { recipient: ['27831234567'], message: 'Stopped' });
  await emulator.clock.advance('1s');

  expect(local).toBe(1);
  expect(emulator.webhooks.list().items.map((event) => event.attempts[0]?.error ?? event.attempts[0]?.status)).toEqual([
    expect.stringMatching(/ECONNREFUSED/),
    200,
    expect.stringMatching(/ECONNREFUSED/),
  ]);
  await emulator.close();
});
