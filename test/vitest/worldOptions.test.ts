/** The fixture's per-test world: smsWorld overrides and variants sharing the file's emulator, forwardTo the app, createSmsTest in a describe block. */

import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, expectTypeOf } from 'vitest';
import type { ShownStatus } from '../../src/domain/message.js';
import { type SmsEmulator, createSmsTest } from '../../src/vitest/index.js';

const test = createSmsTest({
  emulator: { clock: 'manual', seed: 'world-options' },
  account: { balance: 50, signingSecret: 'sk_file_wide' },
});

let fileEmulator: SmsEmulator | undefined;

test('the file-wide account options apply, its signingSecret included', async ({ sms, emulator }) => {
  fileEmulator = emulator;
  expect(sms.account.signingSecret).toBe('sk_file_wide');
  expect((await emulator.accounts.get(sms.account.apiKey)).signingSecret).toBe('sk_file_wide');
  expect((await sms.client.balance()).balance).toBe(50);
  // A world's webhooks are signed with its own secret, which the test's account carries for the app's check.
  expect(sms.account.webhookSigningSecret).toMatch(/^whsec_[0-9a-f]{32}$/);
  const sent = await sms.client.send({ recipient: '27831234567', message: 'Signed' });
  await sms.waitFor(sent.id).toReach('submitted');
  const [post] = sms.catcher.received;
  expect(post?.headers['webhook-signature']).toBe(
    createHmac('sha256', sms.account.webhookSigningSecret as string)
      .update(post?.rawBody ?? '')
      .digest('hex'),
  );
});

describe('test.override({ smsWorld }) sets the world of the tests of its block, on the same emulator', () => {
  test.override({
    smsWorld: {
      startTime: '2030-01-01T08:00:00Z',
      balance: 3,
      sandboxBalance: 7,
      environment: 'sandbox',
      scopes: ['send', 'read', 'balance'],
      scenario: { rules: [{ match: { recipient: '27830000009' }, outcome: 'undelivered' }] },
      signingSecret: 'sk_block',
      webhookSigningSecret: 'whsec_block',
    },
  });

  test('every world option applies', async ({ sms, emulator }) => {
    expect(emulator).toBe(fileEmulator);
    expect(sms.now().toISOString()).toBe('2030-01-01T08:00:00.000Z');
    expect(sms.environment).toBe('sandbox');
    expect(sms.baseUrl).toBe(`${emulator.urls?.origin}/sandbox`);
    expect(sms.account).toMatchObject({ signingSecret: 'sk_block', webhookSigningSecret: 'whsec_block' });
    expect((await sms.client.balance()).balance).toBe(7);
    const account = await emulator.accounts.get(sms.account.apiKey);
    expect([account.live.balance, account.scopes]).toEqual([3, ['send', 'read', 'balance']]);
    const refused = await sms.client.send({ recipient: '27830000009', message: 'Ruled' });
    await sms.waitFor(refused.id).toReach('undelivered');
    await expect(sms.client.delete(refused.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

const lowOnCredit = test.extend({ smsWorld: { balance: 1 } });

lowOnCredit('a variant made with test.extend({ smsWorld }) shares the file emulator', async ({ sms, emulator }) => {
  expect(emulator).toBe(fileEmulator);
  expect((await sms.client.balance()).balance).toBe(1);
  // The file-wide options still apply beneath the variant's.
  expect(sms.account.signingSecret).toBe('sk_file_wide');
});

describe('sms.forwardTo hands the webhooks to the app, and the catcher keeps its copy', () => {
  test('to a handler attached after the world exists: the app answers, toHaveReceivedWebhook still sees every post', async ({
    sms,
  }) => {
    const heard: { path: string; signature: string | null; status: string }[] = [];
    // The app is built from the world's key and URL, then attached.
    const app = {
      apiKey: sms.account.apiKey,
      fetch: async (request: Request) => {
        const { status } = (await request.json()) as { status: string };
        heard.push({
          path: new URL(request.url).pathname,
          signature: request.headers.get('webhook-signature'),
          status,
        });
        return new Response('ok');
      },
    };
    sms.forwardTo(app.fetch, { path: '/sms/status' });
    const sent = await sms.client.send({ recipient: '27831234567', message: 'To the app' });
    await sms.waitFor(sent.id).toReach('delivered');

    expect(heard.map(({ path, status }) => [path, status])).toEqual([
      ['/sms/status', 'submitted'],
      ['/sms/status', 'delivered'],
    ]);
    expect(heard[0]?.signature).toBe(sms.catcher.received[0]?.headers['webhook-signature']);
    expect(sms).toHaveReceivedWebhook({ id: sent.id, status: 'delivered' });
  });

  test("a handler that refuses every try fails the wait at once with the app's answers", async ({ sms }) => {
    sms.forwardTo(() => new Response('invalid signature', { status: 401 }));
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Refused' });
    await expect(sms.waitFor(sent.id).toReach('submitted')).rejects.toThrow(
      /CONTROL_WEBHOOK_REFUSED: .*"submitted" to .*: 401 "invalid signature" ×4\.$/,
    );
    expect(sms.webhooks().map((payload) => payload.status)).toEqual(Array(4).fill('submitted'));
    // The catcher got them, but the app took none: the assertion says so, naming the app's answers.
    expect(() => expect(sms).toHaveReceivedWebhook({ id: sent.id, status: 'submitted' })).toThrow(
      /that the app took; the app refused each of the 4 posts: 401 "invalid signature" ×4$/,
    );
    expect(sms).not.toHaveReceivedWebhook({ id: sent.id, status: 'submitted' });
  });

  test('a payload the app took at a retry counts as received', async ({ sms }) => {
    let posts = 0;
    sms.forwardTo(() => new Response(null, { status: posts++ === 0 ? 503 : 200 }));
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Retried' });
    await sms.waitFor(sent.id).toReach('submitted');
    expect(sms).toHaveReceivedWebhook({ id: sent.id, status: 'submitted' });
  });

  test("to the app's URL: each post goes there with the emulator's headers and body, and its answer comes back", async ({
    sms,
    onTestFinished,
  }) => {
    const posts: { path: string | undefined; signature: string | undefined; body: string }[] = [];
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        posts.push({ path: request.url, signature: request.headers['webhook-signature'] as string, body });
        response.writeHead(posts.length === 1 ? 503 : 200).end('busy');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    sms.forwardTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Over HTTP' });
    await sms.waitFor(sent.id).toReach('submitted');

    expect(posts.map((post) => post.path)).toEqual(['/hooks', '/hooks']);
    expect(posts[0]?.body).toBe(sms.catcher.received[0]?.rawBody);
    expect(posts[0]?.signature).toBe(sms.catcher.received[0]?.headers['webhook-signature']);
    const [event] = (await sms.emulator.webhooks.list({ account: sms.account.apiKey })).items;
    expect(event?.attempts.map((attempt) => [attempt.status, attempt.answer])).toEqual([
      [503, 'busy'],
      [200, undefined],
    ]);
  });
});

describe('createSmsTest inside a describe block', () => {
  const inner = createSmsTest({ emulator: { clock: 'manual', seed: 'inner' }, account: { balance: 9 } });
  let innerEmulator: SmsEmulator | undefined;

  inner('works, with an emulator of its own', async ({ sms, emulator }) => {
    innerEmulator = emulator;
    expect(emulator).not.toBe(fileEmulator);
    expect((await sms.client.balance()).balance).toBe(9);
    const sent = await sms.client.send({ recipient: '27831234567', message: 'Inner' });
    await sms.waitFor(sent.id).toReach('delivered');
    expect(sms).toHaveReceivedWebhook({ id: sent.id, status: 'delivered' });
  });

  inner('which every test of the block shares', ({ emulator }) => {
    expect(emulator).toBe(innerEmulator);
  });
});

test('toHaveStatus takes the statuses a message can have, and nothing else', () => {
  expectTypeOf(expect({ id: 'x', status: 'delivered' }).toHaveStatus)
    .parameter(0)
    .toEqualTypeOf<ShownStatus>();
  const misspelt = () =>
    // @ts-expect-error -- a status no message has is refused by the type check
    expect({ id: 'x', status: 'delivered' }).toHaveStatus('deliverd');
  expect(misspelt).toBeTypeOf('function');
});
