/** A session of every /v1 operation, with webhooks and replies, driven through any fetch for the parity tests. */

import { type EmulatorOptions, emulatorTranscript, signRequest } from '../../src/index.js';
import { apiKey, basic, makeEmulator, signingSecret } from './api.js';

export interface SessionTarget {
  /** The base URL requests go to (the emulator's, or a recorder's in front of it). */
  base: string;
  fetch: (request: Request) => Promise<Response>;
  /** Moves the provider's clock; answers once the webhooks it made due were tried. */
  advance: (ms: number) => Promise<unknown>;
  /** A phone replies to a message at the provider. */
  inject: (messageId: string, from: string, text: string) => Promise<unknown>;
}

async function call(
  target: SessionTarget,
  method: string,
  path: string,
  body?: Record<string, unknown>,
  secret: string = signingSecret,
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { authorization: basic(apiKey) };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    if (method === 'POST' || method === 'PATCH') headers.signature = signRequest(body, secret);
  }
  const response = await target.fetch(
    new Request(`${target.base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Sends, a schedule edited and another deleted, reads, a list, balances, errors (two at once too), webhooks, a reply. */
export async function everyOperationSession(target: SessionTarget): Promise<void> {
  const sent = await call(target, 'POST', '/v1/messages', {
    recipient: ['27831234567', '27831234568'],
    message: 'Your code is 1234',
    client_reference: 'order-42',
  });
  await call(target, 'POST', '/sandbox/v1/messages', { recipient: ['27831234569'], message: 'Sandbox hello' });
  const scheduled = await call(target, 'POST', '/v1/messages', {
    recipient: ['27831234570'],
    message: 'Later',
    schedule: '2026-11-21T13:00',
  });
  const doomed = await call(target, 'POST', '/v1/messages', {
    recipient: ['27831234571'],
    message: 'Never',
    schedule: '2026-11-21T14:00:00+02:00',
  });
  await call(target, 'PATCH', `/v1/messages/${scheduled.body.id}`, { message: 'Later, edited' });
  await call(target, 'DELETE', `/v1/messages/${doomed.body.id}`);
  await call(target, 'GET', `/v1/messages/${sent.body.id}`);
  await call(target, 'GET', '/v1/messages?limit=5');
  await call(target, 'GET', '/v1/messages/balance');
  await call(target, 'POST', '/v1/messages', { message: 'no recipient' });
  await call(target, 'POST', '/v1/messages', {});
  await call(target, 'POST', '/v1/messages', { recipient: ['0831234567'], message: 'bad number' });
  await call(target, 'POST', '/v1/messages', { recipient: ['27831234567'], message: 'forged' }, 'wrong');
  await call(target, 'GET', '/v1/messages/not-a-message');
  await call(target, 'PUT', '/v1/messages/balance');
  await target.advance(10_000);
  await target.inject(sent.body.id as string, '27831234567', 'STOP');
  await target.advance(5_000);
  await call(target, 'GET', '/v1/messages/balance');
}

/** The session run on an in-process emulator (its manual clock), as `emulator.fetch` answers it. */
export function inProcess(emulator: {
  fetch: (request: Request) => Promise<Response>;
  clock: { advance: (ms: number) => Promise<unknown> };
  replies: { inject: (id: string, reply: { from: string; text: string }) => Promise<unknown> };
}): SessionTarget {
  return {
    base: 'http://emulator.test',
    fetch: (request) => emulator.fetch(request),
    advance: (ms) => emulator.clock.advance(ms),
    inject: (id, from, text) => emulator.replies.inject(id, { from, text }),
  };
}

/**
 * Texts on both sides of each encoding's one-segment limit (160 GSM-7 septets, 70 UCS-2 units) and well past it, so
 * a provider that counts one encoding's segments differently is charged differently somewhere in the session.
 */
export const segmentTexts = [
  'G'.repeat(160),
  'G'.repeat(161),
  `${'G'.repeat(320)}€`,
  '☃'.repeat(70),
  '☃'.repeat(71),
  `Ünïcødé ${'☃'.repeat(200)}`,
] as const;

/** Every magic number of the built-in scenario (docs/scenarios.md): each outcome, the delayed one and the replies. */
const magicNumbers = Array.from({ length: 9 }, (_, index) => `2783000000${index + 1}`);

/**
 * A long session of the emulator's own behaviour, `rounds` rounds of 10 s each: sends to every magic number (replies
 * included) and to ordinary numbers in both encodings past their one-segment limits, and every fifth round a sandbox
 * send, reads, a list, a balance, refused sends (one charged, for its malformed number), a schedule edited and one
 * deleted. Ends with a clock move past every timeline (expiry included), so every notification has happened.
 */
export async function generatedSession(target: SessionTarget, rounds: number): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    const text = segmentTexts[round % segmentTexts.length] as string;
    const sent = await call(target, 'POST', '/v1/messages', {
      recipient: [magicNumbers[round % magicNumbers.length]],
      message: text,
      client_reference: `order-${round}`,
    });
    const suffix = String(round).padStart(4, '0');
    await call(target, 'POST', '/v1/messages', {
      recipient: [`2783123${suffix}`, `2784123${suffix}`],
      message: segmentTexts[(round + 3) % segmentTexts.length],
    });
    if (round % 5 === 0) {
      await call(target, 'POST', '/sandbox/v1/messages', { recipient: [`2782555${suffix}`], message: text });
      await call(target, 'GET', `/v1/messages/${sent.body.id}`);
      await call(target, 'GET', '/v1/messages?limit=3');
      await call(target, 'GET', '/v1/messages/balance');
      await call(target, 'POST', '/v1/messages', { recipient: ['0831234567'], message: text });
      await call(target, 'POST', '/v1/messages', { message: 'no recipient' });
      const scheduled = await call(target, 'POST', '/v1/messages', {
        recipient: ['27831234570'],
        message: 'Later',
        schedule: '2026-11-29T13:00:00+02:00',
      });
      await call(target, 'PATCH', `/v1/messages/${scheduled.body.id}`, { message: 'Later, edited' });
      await call(target, 'DELETE', `/v1/messages/${scheduled.body.id}`);
    }
    await target.advance(10_000);
  }
  await target.advance(3 * 24 * 3_600_000);
  await call(target, 'GET', '/v1/messages/balance');
}

/**
 * The transcript of `session` run on a fresh in-process emulator (the helpers' manual clock, `options` over them) whose
 * live and sandbox webhooks are caught in process and answered 200.
 */
export async function sessionTranscript(
  session: (target: SessionTarget) => Promise<void>,
  options: EmulatorOptions = {},
): Promise<string> {
  const emulator = makeEmulator(options);
  emulator.receiveWebhooksLocally('http://hooks.test/', () => 200);
  emulator.accounts.update(apiKey, {
    live: { webhookUrl: 'http://hooks.test/live' },
    sandbox: { webhookUrl: 'http://hooks.test/sandbox' },
  });
  try {
    await session(inProcess(emulator));
    return await emulatorTranscript(emulator);
  } finally {
    await emulator.close();
  }
}
