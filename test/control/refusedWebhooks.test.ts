/** A wait for a status whose webhook the app's receiver refused at every try fails at once, naming the answers. */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { ApiError, type Emulator, type WebhookAnswer } from '../../src/index.js';
import { control, makeEmulator, send } from '../support/api.js';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

/** An emulator whose world posts to an in-process receiver answering `answer` for each notification. */
function worldAnswering(answer: (status: string, attempt: number) => number | WebhookAnswer) {
  const emulator = makeEmulator();
  const world = emulator.worlds.create({ account: { webhookUrl: 'http://app.test/hooks' } });
  emulator.receiveWebhooksLocally('http://app.test/', ({ headers, body }) =>
    answer(JSON.parse(body).status, Number(headers['x-emulator-attempt'])),
  );
  return { emulator, world };
}

async function sendAs(emulator: Emulator, world: ReturnType<Emulator['worlds']['create']>) {
  const { apiKey, signingSecret } = world.account;
  return (await send(emulator, { recipient: ['27831234567'], message: 'Hi' }, 'live', apiKey, signingSecret)) as {
    id: string;
  };
}

test('a wait for a status whose webhook was refused at every try fails at once with CONTROL_WEBHOOK_REFUSED naming the answers', async () => {
  const { emulator, world } = worldAnswering(() => ({ status: 401, body: '{"error":"invalid signature"}' }));
  const sent = await sendAs(emulator, world);
  const start = emulator.clocks.get(world.clock.id).now;

  const failed = await emulator
    .waitFor(sent.id)
    .toReach('delivered', { within: '1h' })
    .catch((error: unknown) => error);
  expect(failed).toBeInstanceOf(ApiError);
  expect((failed as ApiError).code).toBe('CONTROL_WEBHOOK_REFUSED');
  expect((failed as ApiError).description).toBe(
    `message ${sent.id} reached "delivered", but the webhook receiver of account ${world.account.apiKey} refused its notification at every try, and no retry is left: 27831234567 "delivered" to http://app.test/hooks: 401 "{"error":"invalid signature"}" ×4.`,
  );
  // At once: the clock stopped at the delivery, not at the end of `within`.
  expect(emulator.clocks.get(world.clock.id).now).toBe(start + 5_000);

  // Over HTTP the same wait answers 409 with the same words.
  const again = await sendAs(emulator, world);
  const answer = await control(emulator, 'POST', `/messages/${again.id}/wait`, { status: 'delivered' });
  expect([answer.status, answer.body.message]).toEqual([409, 'CONTROL_WEBHOOK_REFUSED']);
  expect(answer.body.description).toContain('27831234567 "delivered" to http://app.test/hooks: 401');
});

test('a wait passes when a retry was taken, and when only another status was refused', async () => {
  const { emulator, world } = worldAnswering((status, attempt) => (status === 'submitted' || attempt < 3 ? 503 : 200));
  const sent = await sendAs(emulator, world);

  const message = await emulator.waitFor(sent.id).toReach('delivered');
  expect(message.status).toBe('delivered');
  const log = emulator.webhooks.list({ message: sent.id }).items;
  expect(log.map((event) => [event.status, event.state, event.attempts.map((attempt) => attempt.status)])).toEqual([
    ['submitted', 'failed', [503, 503, 503, 503]],
    ['delivered', 'delivered', [503, 503, 200]],
  ]);
});

test('a wait for a status refused at every try fails the same when the receiver gave no answer', async () => {
  const { emulator, world } = worldAnswering(() => {
    throw new Error('handler crashed');
  });
  const sent = await sendAs(emulator, world);
  await expect(emulator.waitFor(sent.id).toReach('submitted')).rejects.toThrow(
    /CONTROL_WEBHOOK_REFUSED: .*27831234567 "submitted" to http:\/\/app\.test\/hooks: no answer \(receiver failed: handler crashed\) ×4\.$/,
  );
});

test('a refusal over a socket logs the start of its body with the try, 200 bytes at most, and nothing for a 200', async () => {
  const reason = `denied: ${'x'.repeat(500)}`;
  let answers = 0;
  const server = createServer((request, response) => {
    request.resume();
    response.statusCode = answers++ === 0 ? 401 : 200;
    response.end(response.statusCode === 200 ? 'fine' : reason);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  const emulator = makeEmulator({
    webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    notifyOn: ['submitted'],
  });
  open.push(emulator);
  await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  await emulator.clock.advance('1s');

  const [event] = emulator.webhooks.list().items;
  expect(event?.attempts.map((attempt) => [attempt.status, attempt.answer])).toEqual([
    [401, reason.slice(0, 200)],
    [200, undefined],
  ]);
});
