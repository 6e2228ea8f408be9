import { expect, test, vi } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { apiKey, call, makeEmulator, send } from '../support/api.js';

/** Sends to one number (optionally with the outcome header) and reads the status a minute later. */
async function outcomeOf(emulator: Emulator, recipient: string, header?: string): Promise<string> {
  const headers: Record<string, string> = header === undefined ? {} : { 'x-emulator-outcome': header };
  const reply = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: [recipient], message: 'which outcome?' },
    headers,
  });
  expect(reply.status).toBe(201);
  await emulator.clock.advance('1m');
  return emulator.messages.get(reply.body.id).status;
}

const withRule = () =>
  makeEmulator({ scenario: { version: 1, rules: [{ match: { recipient: '2783000000*' }, outcome: 'noroute' }] } });

test('the header wins over an opt-out, a user decider and the scenario', async () => {
  const emulator = withRule();
  emulator.optOuts.add('27830000001');
  emulator.setOutcomeDecider(() => [{ status: 'failed', afterMs: 1000 }]);
  expect(await outcomeOf(emulator, '27830000001', 'undelivered')).toBe('undelivered');
});

test('an opt-out wins over a user decider and the scenario', async () => {
  const emulator = withRule();
  emulator.optOuts.add('27830000001');
  emulator.setOutcomeDecider(() => [{ status: 'failed', afterMs: 1000 }]);
  expect(await outcomeOf(emulator, '27830000001')).toBe('blist');
});

test('a user decider wins over the scenario, and one answering undefined lets the scenario decide', async () => {
  const emulator = withRule();
  emulator.setOutcomeDecider(({ recipient }) =>
    recipient === '27830000001' ? [{ status: 'failed', afterMs: 1000 }] : undefined,
  );
  expect(await outcomeOf(emulator, '27830000001')).toBe('failed');
  expect(await outcomeOf(emulator, '27830000002')).toBe('noroute');
  expect(await outcomeOf(emulator, '27831111111')).toBe('delivered');
});

test('a scenario set after a user decider still decides the legs the decider leaves', async () => {
  const emulator = makeEmulator();
  emulator.setOutcomeDecider(() => undefined);
  emulator.scenario.set({ version: 1, rules: [{ match: { recipient: '27831111111' }, outcome: 'undelivered' }] });
  expect(await outcomeOf(emulator, '27831111111')).toBe('undelivered');
});

test('setOutcomeDecider(undefined) and reset both remove the user decider', async () => {
  const emulator = makeEmulator({ scenario: { version: 1 } });
  emulator.setOutcomeDecider(() => [{ status: 'failed', afterMs: 1000 }]);
  expect(await outcomeOf(emulator, '27831111111')).toBe('failed');
  emulator.setOutcomeDecider(undefined);
  expect(await outcomeOf(emulator, '27831111111')).toBe('delivered');
  emulator.setOutcomeDecider(() => [{ status: 'failed', afterMs: 1000 }]);
  emulator.reset();
  expect(await outcomeOf(emulator, '27831111111')).toBe('delivered');
});

test('a decider sees read-only copies: changing them changes nothing in the emulator', async () => {
  const emulator = makeEmulator();
  const seen: unknown[] = [];
  emulator.setOutcomeDecider((context) => {
    seen.push(context.message.status, context.account.live.balance, context.environment);
    const message = context.message as unknown as { status: string; recipient: string[] };
    message.status = 'delivered';
    message.recipient.push('27839999999');
    (context.account as { live: { balance: number } }).live.balance = 1;
    return undefined;
  });
  const sent = await send(emulator, { recipient: ['27831111111'], message: 'copy' });
  expect(seen).toEqual(['pending', 1000, 'live']);
  expect(emulator.messages.get(sent.id)).toMatchObject({ status: 'pending', recipient: ['27831111111'] });
  expect(emulator.accounts.get(apiKey).live.balance).toBe(999);
});

test('event listeners get read-only copies, and one that throws breaks neither the send nor its charge', async () => {
  const emulator = makeEmulator();
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const statuses: string[] = [];
  emulator.on('leg.status', ({ leg, status, at }) => statuses.push(`${leg.recipient} ${status} ${at}`));
  emulator.on('message.created', ({ message }) => {
    (message as { status: string }).status = 'delivered';
    throw new Error('listener bug');
  });
  const sent = await send(emulator, { recipient: ['27831111111'], message: 'listened' });
  await emulator.clock.advance('1s');
  expect(emulator.messages.get(sent.id).status).toBe('submitted');
  expect(emulator.accounts.get(apiKey).live.balance).toBe(999);
  expect(statuses).toEqual(['27831111111 submitted 2026-11-21T12:00:01+02:00']);
  expect(String(error.mock.calls[0]?.[0])).toContain('a listener of "message.created" threw');
  error.mockRestore();
});
