/** The webhook catcher answers as told, and a response function that is async, throws or gives no status never takes the test process down. */

import { afterEach, expect, test } from 'vitest';
import { createWebhookCatcher, type WebhookCatcher } from '../../src/index.js';
import { createCatcherServer } from '../../src/testing/webhookCatcher.js';

const open: WebhookCatcher[] = [];
afterEach(async () => {
  for (const catcher of open.splice(0)) await catcher.close();
});

async function post(catcher: WebhookCatcher): Promise<{ status: number; text: string }> {
  const response = await fetch(catcher.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"status":"delivered"}',
  });
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
  expect(await post(catcher)).toEqual({
    status: 500,
    text: 'respondWith failed: 42 is not an HTTP status (100 to 599)',
  });
  expect(catcher.received).toHaveLength(3);
});

test('one catcher server routes each path to its own catcher; a closed route answers 404 and the others keep receiving', async () => {
  const server = await createCatcherServer();
  try {
    const first = server.catcher('/webhooks/pk_first');
    const second = server.catcher('/webhooks/pk_second');
    expect(first.url).toBe(`${server.origin}/webhooks/pk_first`);
    expect(() => server.catcher('/webhooks/pk_first')).toThrow(/already receives at \/webhooks\/pk_first/);
    second.respondWith(503);
    expect((await post(first)).status).toBe(200);
    expect((await post(second)).status).toBe(503);
    expect([first.received.length, second.received.length]).toEqual([1, 1]);
    await first.close();
    expect(await post(first)).toEqual({ status: 404, text: 'no webhook catcher at /webhooks/pk_first' });
    expect(first.received).toHaveLength(1);
    expect((await post(second)).status).toBe(503);
  } finally {
    await server.close();
  }
});
