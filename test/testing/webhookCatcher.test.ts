/** The webhook catcher answers as told, and a response function that is async, throws or gives no status never takes the test process down. */

import { afterEach, expect, test } from 'vitest';
import { createWebhookCatcher, type WebhookCatcher } from '../../src/index.js';

const open: WebhookCatcher[] = [];
afterEach(async () => {
  for (const catcher of open.splice(0)) await catcher.close();
});

async function post(catcher: WebhookCatcher): Promise<{ status: number; text: string }> {
  const response = await fetch(catcher.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"status":"delivered"}' });
  return { status: response.status, text: await response.text() };
}

test('an async response function is awaited, like an app handler that stores the webhook first', async () => {
  const catcher = await createWebhookCatcher();
  open.push(catcher);
  catcher.respondWith(async (request) => (request.body.status === 'delivered' ? 204 : 200));
  expect((await post(catcher)).status).toBe(204);
});

test('a response function that throws, rejects or gives no valid status answers 500 saying why instead of crashing the process', async () => {
  const catcher = await createWebhookCatcher();
  open.push(catcher);
  catcher.respondWith(() => {
    throw new Error('handler broke');
  });
  expect(await post(catcher)).toEqual({ status: 500, text: 'respondWith failed: handler broke' });
  catcher.respondWith(async () => Promise.reject(new Error('async handler broke')));
  expect(await post(catcher)).toEqual({ status: 500, text: 'respondWith failed: async handler broke' });
  catcher.respondWith(() => 42);
  expect(await post(catcher)).toEqual({ status: 500, text: 'respondWith failed: 42 is not an HTTP status (100 to 599)' });
  expect(catcher.received).toHaveLength(3);
});
