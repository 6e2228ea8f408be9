/** check-receiver as a control operation: POST /_emulator/receiver-check answers what `check-receiver --json` prints. */

import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { connect, createEmulator } from '../../src/index.js';
import { statefulReceiver } from '../support/statefulReceiver.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

/** The report with its timings and the receiver's address taken out: two runs of one seed differ only in those. */
function withoutTimings(report: unknown, origin: string): unknown {
  const text = JSON.stringify(report, (key, value: unknown) => (key === 'ms' ? 0 : value));
  return JSON.parse(text.replaceAll(/slowest \d+ ms/g, 'slowest _ ms').replaceAll(origin, 'http://receiver'));
}

function cliJson(args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [bin, 'check-receiver', ...args, '--json'], { timeout: 60_000 }, (_, stdout, stderr) => {
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`no JSON from check-receiver: ${stderr}`));
      }
    });
  });
}

async function emulatorListening(options: Parameters<typeof createEmulator>[0] = {}) {
  const emulator = createEmulator({ clock: 'manual', controlToken: 'secret', ...options });
  open.push(emulator);
  const { origin } = await emulator.listen({ port: 0 });
  return { emulator, origin };
}

test('POST /_emulator/receiver-check answers the report check-receiver --json prints, state hook included', async () => {
  const receiver = await statefulReceiver('counts-every-post');
  open.push(receiver);
  const { origin } = await emulatorListening();
  const input = {
    receiver: receiver.url,
    state: receiver.state,
    only: ['duplicate', 'out-of-order'],
    seed: 'control',
    at: '2030-01-01T10:00:00Z',
    receiverTimeout: '2s',
  };
  const response = await fetch(`${origin}/_emulator/receiver-check`, {
    method: 'POST',
    headers: { authorization: 'Bearer secret', 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  expect(response.status).toBe(200);
  const report = (await response.json()) as { passed: boolean; checks: { name: string; reason: string }[] };
  expect(report.passed).toBe(false);
  expect(report.checks[0]?.reason).toMatch(/^after submitted, delivered, delivered again \(same event id\) of /);
  // A receiver of its own: the same seed sends the same message ids, which the first one already holds.
  const another = await statefulReceiver('counts-every-post');
  open.push(another);
  const printed = await cliJson([
    another.url,
    '--state',
    another.state,
    '--only',
    'duplicate,out-of-order',
    '--seed',
    'control',
    '--timeout',
    '2s',
  ]);
  // The same seed gives the same message ids, so the two reports differ only in how long each post took.
  expect(withoutTimings(report, new URL(receiver.url).origin)).toEqual(
    withoutTimings(printed, new URL(another.url).origin),
  );
});

test("connect()'s receiverCheck signs with the emulator's webhook secret, the named account's, or the one given", async () => {
  const receiver = await statefulReceiver('correct');
  open.push(receiver);
  const { origin } = await emulatorListening({ webhookSigningSecret: 'whsec_emulator' });
  const remote = connect(origin, { controlToken: 'secret' });
  const report = await remote.receiverCheck({ receiver: receiver.url, state: receiver.state, only: ['late'] });
  expect(report).toMatchObject({ passed: true, unseen: [], checks: [{ name: 'late', passed: true }] });
  expect(report.checks[0]?.state).toEqual([
    {
      message: expect.any(String),
      expected: { status: 'delivered', notifications: 2 },
      held: { status: 'delivered', notifications: 2 },
      passed: true,
    },
  ]);
  const signedWith = (secret: string) => (post: (typeof receiver.posts)[number]) =>
    post.headers['webhook-signature'] === createHmac('sha256', secret).update(post.body).digest('hex');
  expect(receiver.posts.length).toBe(2);
  expect(receiver.posts.every(signedWith('whsec_emulator'))).toBe(true);
  await remote.receiverCheck({ receiver: receiver.url, only: ['orphan'], signingSecret: 'another' });
  expect(receiver.posts.slice(2).map(signedWith('another'))).toEqual([true]);
  const world = await remote.worlds.create({});
  await remote.receiverCheck({ receiver: receiver.url, only: ['orphan'], account: world.account.apiKey });
  expect(receiver.posts.slice(3).map(signedWith(world.account.webhookSigningSecret as string))).toEqual([true]);
});

test('a receiver check that cannot run is CONTROL_INVALID_REQUEST saying why, and posts nothing', async () => {
  const receiver = await statefulReceiver('correct');
  open.push(receiver);
  const { emulator } = await emulatorListening();
  const cases: [unknown, RegExp][] = [
    [{}, /Invalid receiver check: .*receiver/],
    [{ receiver: 'ftp://127.0.0.1/hooks' }, /receiver.*http:\/\/ or https:\/\//],
    // The masked URL every view shows, copied back: posting it would send *** as the password.
    [{ receiver: 'http://hooks:***@127.0.0.1:4000/sms' }, /receiver.*password is \*\*\*, the mask views show/],
    [{ receiver: receiver.url, only: ['statuses', 'nonsense'] }, /only/],
    [{ receiver: receiver.url, only: ['reply'], skip: ['burst'] }, /give only or skip, not both/],
    [
      { receiver: receiver.url, state: 'http://127.0.0.1:1/sms' },
      /state "http:\/\/127\.0\.0\.1:1\/sms" names no message/,
    ],
    [{ receiver: receiver.url, receiverTimeout: 'soon' }, /receiverTimeout/],
  ];
  for (const [input, message] of cases) {
    const refused = await Promise.resolve()
      .then(() => emulator.receiverCheck(input as never))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused, JSON.stringify(input)).toMatchObject({ code: 'CONTROL_INVALID_REQUEST', status: 400 });
    expect((refused as Error & { description: string }).description).toMatch(message);
  }
  expect(receiver.posts).toEqual([]);
});
