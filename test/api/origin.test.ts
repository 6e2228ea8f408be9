/** Where links point: the request's own origin, forwarded headers only when sane, and publicUrl over everything. */

import { afterEach, expect, test } from 'vitest';
import { createWebhookCatcher } from '../../src/index.js';
import { call, makeEmulator, send } from '../support/api.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

const selfLink = async (headers: Record<string, string>, options = {}) => {
  const emulator = makeEmulator(options);
  const { id } = await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  return (await call(emulator, 'GET', `/v1/messages/${id}`, { headers })).body._links.self.href as string;
};

test('X-Forwarded-Proto is honoured for http and https only; anything else is ignored', async () => {
  expect(await selfLink({ 'x-forwarded-proto': 'https' })).toMatch(/^https:\/\/emulator\.test\/v1\/messages\//);
  expect(await selfLink({ 'x-forwarded-proto': 'javascript' })).toMatch(/^http:\/\/emulator\.test\/v1\/messages\//);
  expect(await selfLink({ 'x-forwarded-proto': 'javascript, https' })).toMatch(/^http:\/\//);
});

test('an X-Forwarded-Host that is not a host and port is ignored', async () => {
  expect(await selfLink({ 'x-forwarded-host': 'api.example.test:8443' })).toMatch(
    /^http:\/\/api\.example\.test:8443\/v1\//,
  );
  expect(await selfLink({ 'x-forwarded-host': 'evil.test/phish?' })).toMatch(/^http:\/\/emulator\.test\/v1\//);
});

test('requireHttps refuses a request whose X-Forwarded-Proto is not https', async () => {
  const emulator = makeEmulator({ requireHttps: true });
  const refused = await call(emulator, 'GET', '/v1/messages/balance', {
    headers: { 'x-forwarded-proto': 'javascript' },
  });
  expect(refused.body.message).toBe('CONNECTION_INSECURE');
  expect(
    (await call(emulator, 'GET', '/v1/messages/balance', { headers: { 'x-forwarded-proto': 'https' } })).status,
  ).toBe(200);
});

test('publicUrl fixes the origin of API links, documentation URLs and webhook payload links', async () => {
  const catcher = await createWebhookCatcher();
  open.push(catcher);
  const publicUrl = 'https://sms.example.test:8443';
  expect(await selfLink({ 'x-forwarded-host': 'other.test' }, { publicUrl })).toMatch(
    /^https:\/\/sms\.example\.test:8443\/v1\/messages\//,
  );
  const emulator = makeEmulator({ publicUrl, webhookUrl: catcher.url });
  open.push(emulator);
  const error = await call(emulator, 'GET', '/v1/messages/nope');
  expect(error.body.documentation_url).toMatch(/^https:\/\/sms\.example\.test:8443\/_emulator\/docs\//);
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' }, 'sandbox');
  await emulator.clock.advance('1s');
  expect(catcher.received[0]?.body._links.self.href).toMatch(
    /^https:\/\/sms\.example\.test:8443\/sandbox\/v1\/messages\//,
  );
});

test.each(['ftp://sms.example.test', 'https://sms.example.test/base', 'https://sms.example.test/?x=1', 'not a url'])(
  'publicUrl %s is refused at start',
  (publicUrl) => {
    expect(() => makeEmulator({ publicUrl })).toThrow(/publicUrl/);
  },
);
