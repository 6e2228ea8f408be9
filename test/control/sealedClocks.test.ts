/** Sealed test clocks: a move waits for its own clock's webhook tries only, so a neighbour's hanging receiver holds no one else. */

import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, type Socket, createServer } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { control, makeEmulator, send } from '../support/api.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A receiver that accepts every connection and never answers (the default webhook timeout applies to it). */
async function hangingReceiver(): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

/** A receiver that answers 200 at once and counts what it got. */
async function answeringReceiver(): Promise<{ url: string; received: string[] }> {
  const received: string[] = [];
  const server = createHttpServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push(JSON.parse(body).status);
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

async function worldOn(emulator: ReturnType<typeof makeEmulator>, name: string, webhookUrl: string) {
  const clock = (await control(emulator, 'POST', '/clocks', { name })).body;
  const apiKey = `pk_${name}`;
  const signingSecret = `sk_${name}`;
  const account = await control(emulator, 'POST', '/accounts', { apiKey, signingSecret, webhookUrl, clock: clock.id });
  expect(account.status).toBe(201);
  return { clock: clock.id as string, apiKey, signingSecret };
}

test('clock B advances and has its webhooks tried while clock A waits on a receiver that never answers', async () => {
  const emulator = makeEmulator(); // the default webhook timeout: A's try hangs for it
  closers.push(() => emulator.close());
  const hanging = await hangingReceiver();
  const answering = await answeringReceiver();
  const a = await worldOn(emulator, 'hanging', hanging);
  const b = await worldOn(emulator, 'answering', answering.url);
  await send(emulator, { recipient: ['27831234567'], message: 'A' }, 'live', a.apiKey, a.signingSecret);
  await send(emulator, { recipient: ['27831234568'], message: 'B' }, 'live', b.apiKey, b.signingSecret);

  let aAnswered = false;
  const aMove = control(emulator, 'POST', `/clocks/${a.clock}`, { advance: '5s' }).then((reply) => {
    aAnswered = true;
    return reply;
  });
  const bMove = await control(emulator, 'POST', `/clocks/${b.clock}`, { advance: '5s' });

  expect(bMove.status).toBe(200);
  expect(answering.received).toEqual(['submitted', 'delivered']);
  expect(aAnswered).toBe(false); // A's move is still held by its own receiver, and only A's
  const aHooks = await control(emulator, 'GET', `/webhooks?account=${a.apiKey}`);
  expect(aHooks.body.items.map((event: { state: string }) => event.state)).toContain('pending');
  // Settling one account waits for its own clock's tries only; settling everything still waits for A.
  expect((await control(emulator, 'POST', '/webhooks/settle', { account: b.apiKey })).body).toEqual({
    status: 'settled',
  });
  let allSettled = false;
  const everything = control(emulator, 'POST', '/webhooks/settle').then(() => (allSettled = true));
  expect((await control(emulator, 'GET', `/clocks/${b.clock}`)).status).toBe(200);
  expect(allSettled).toBe(false);

  await emulator.close(); // ends A's try on the wire: logged as failed, and A's move answers
  expect((await aMove).status).toBe(200);
  await everything;
});

test('waitFor on one clock returns while another clock waits on a receiver that never answers', async () => {
  const emulator = makeEmulator();
  closers.push(() => emulator.close());
  const a = await worldOn(emulator, 'hanging', await hangingReceiver());
  const b = await worldOn(emulator, 'answering', (await answeringReceiver()).url);
  await send(emulator, { recipient: ['27831234567'], message: 'A' }, 'live', a.apiKey, a.signingSecret);
  const sentB = await send(emulator, { recipient: ['27831234568'], message: 'B' }, 'live', b.apiKey, b.signingSecret);
  let aAnswered = false;
  const aMove = emulator.clocks.advance(a.clock, '5s').then(() => (aAnswered = true));

  const reached = await emulator.waitFor(sentB.id).toReach('delivered');

  expect(reached.status).toBe('delivered');
  expect(aAnswered).toBe(false);
  await emulator.close();
  await aMove;
});

test('a move of the main clock does not wait for a test clock whose receiver never answers', async () => {
  const emulator = makeEmulator();
  closers.push(() => emulator.close());
  const a = await worldOn(emulator, 'hanging', await hangingReceiver());
  await send(emulator, { recipient: ['27831234567'], message: 'A' }, 'live', a.apiKey, a.signingSecret);
  let aAnswered = false;
  const aMove = emulator.clocks.advance(a.clock, '5s').then(() => (aAnswered = true));

  const main = await control(emulator, 'POST', '/clock', { advance: '1m' });

  expect(main.status).toBe(200);
  expect(aAnswered).toBe(false);
  await emulator.close();
  await aMove;
});
