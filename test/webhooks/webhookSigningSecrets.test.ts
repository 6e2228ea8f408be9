/** Each account signs its webhooks with its own secret: a world draws one (or takes the one it names), others take the option. */

import { createHmac } from 'node:crypto';
import { expect, test } from 'vitest';
import type { Emulator, EmulatorOptions } from '../../src/index.js';
import { makeEmulator, send } from '../support/api.js';

interface Post {
  url: string;
  signature: string | undefined;
  body: string;
}

/** An emulator whose webhooks to http://hooks.test/ are kept in `posts`, in this process. */
function withReceiver(options: EmulatorOptions = {}): { emulator: Emulator; posts: Post[] } {
  const emulator = makeEmulator({ notifyOn: ['submitted'], ...options });
  const posts: Post[] = [];
  emulator.receiveWebhooksLocally('http://hooks.test/', ({ url, headers, body }) => {
    posts.push({ url, signature: headers['webhook-signature'], body });
    return 200;
  });
  return { emulator, posts };
}

const hmac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

/** Makes a world posting to its own URL, sends one message as it and lets its clock run to the submitted webhook. */
async function sendInWorld(emulator: Emulator, account: Record<string, unknown> = {}) {
  const world = emulator.worlds.create({
    account: { webhookUrl: `http://hooks.test/${account.apiKey ?? 'w'}`, ...account },
  });
  await send(
    emulator,
    { recipient: ['27831234567'], message: 'Hi' },
    'live',
    world.account.apiKey,
    world.account.signingSecret,
  );
  await emulator.clocks.advance(world.clock.id, '5s');
  return world;
}

test('two worlds sign their webhooks with secrets of their own, drawn the same for a seed', async () => {
  const { emulator, posts } = withReceiver();
  const first = await sendInWorld(emulator, { apiKey: 'pk_test_first' });
  const second = await sendInWorld(emulator, { apiKey: 'pk_test_second' });

  const [secretA, secretB] = [first.account.webhookSigningSecret, second.account.webhookSigningSecret];
  expect(secretA).toMatch(/^whsec_[0-9a-f]{32}$/);
  expect(secretB).toMatch(/^whsec_[0-9a-f]{32}$/);
  expect(secretA).not.toBe(secretB);
  expect(posts.map((post) => [post.url, post.signature])).toEqual([
    ['http://hooks.test/pk_test_first', hmac(secretA as string, posts[0]?.body ?? '')],
    ['http://hooks.test/pk_test_second', hmac(secretB as string, posts[1]?.body ?? '')],
  ]);
  const again = makeEmulator();
  expect([again.worlds.create({}), again.worlds.create({})].map((world) => world.account.webhookSigningSecret)).toEqual(
    [secretA, secretB],
  );
});

test('a world that names its webhook signing secret signs with it, and null sends unsigned', async () => {
  const { emulator, posts } = withReceiver({ webhookSigningSecret: 'emulator-wide' });
  const named = await sendInWorld(emulator, { apiKey: 'pk_test_named', webhookSigningSecret: 'whsec_mine' });
  const unsigned = await sendInWorld(emulator, { apiKey: 'pk_test_unsigned', webhookSigningSecret: null });

  expect(named.account.webhookSigningSecret).toBe('whsec_mine');
  expect(unsigned.account.webhookSigningSecret).toBeNull();
  expect(posts.map((post) => post.signature)).toEqual([hmac('whsec_mine', posts[0]?.body ?? ''), undefined]);
});

test('the default account and accounts made over the control API keep the emulator-wide option: unsigned when unset', async () => {
  const unset = withReceiver({ webhookUrl: 'http://hooks.test/default' });
  await send(unset.emulator, { recipient: ['27831234567'], message: 'Hi' });
  await unset.emulator.clock.advance('5s');
  expect(unset.emulator.accounts.get('pk_test_sms_emulator').webhookSigningSecret).toBeNull();
  expect(unset.emulator.accounts.create({ apiKey: 'pk_test_made' }).webhookSigningSecret).toBeNull();
  expect(unset.posts.map((post) => post.signature)).toEqual([undefined]);

  const set = withReceiver({ webhookUrl: 'http://hooks.test/default', webhookSigningSecret: 'emulator-wide' });
  await send(set.emulator, { recipient: ['27831234567'], message: 'Hi' });
  await set.emulator.clock.advance('5s');
  expect(set.emulator.accounts.get('pk_test_sms_emulator').webhookSigningSecret).toBe('emulator-wide');
  expect(set.emulator.accounts.create({ apiKey: 'pk_test_made' }).webhookSigningSecret).toBe('emulator-wide');
  expect(set.posts.map((post) => post.signature)).toEqual([hmac('emulator-wide', set.posts[0]?.body ?? '')]);
});

test("a redelivery signs with the account's webhook signing secret as it is now", async () => {
  const { emulator, posts } = withReceiver();
  const world = await sendInWorld(emulator);
  emulator.accounts.update(world.account.apiKey, { webhookSigningSecret: 'whsec_rotated' });
  const [event] = emulator.webhooks.list({ account: world.account.apiKey }).items;
  await emulator.webhooks.redeliver(event?.id as string);

  expect(posts.map((post) => post.signature)).toEqual([
    hmac(world.account.webhookSigningSecret as string, posts[0]?.body ?? ''),
    hmac('whsec_rotated', posts[1]?.body ?? ''),
  ]);
});

test("a snapshot keeps each account's webhook signing secret; one made before them gives the emulator's option", () => {
  const emulator = makeEmulator({ webhookSigningSecret: 'emulator-wide' });
  const world = emulator.worlds.create({});
  const snapshot = emulator.snapshot();
  const restored = makeEmulator();
  restored.restore(snapshot);
  expect(restored.accounts.get(world.account.apiKey).webhookSigningSecret).toBe(world.account.webhookSigningSecret);

  const older = structuredClone(snapshot);
  for (const account of older.accounts) delete account.webhookSigningSecret;
  emulator.restore(older);
  expect(emulator.accounts.get(world.account.apiKey).webhookSigningSecret).toBe('emulator-wide');
});
