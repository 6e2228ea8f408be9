/** Reset from a thoroughly dirtied emulator: every control list, the snapshot, the report and the UI state equal start-up's. */

import { expect, test } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { apiKey, call, makeEmulator, send } from '../support/api.js';
import { readEvents } from '../support/sse.js';

const startupScenario = {
  version: 1,
  accounts: [{ apiKey: 'pk_startup', balance: 40, optOuts: ['27839999999'] }],
  rules: [{ match: { recipient: '27830000001' }, outcome: 'undelivered' }],
  faults: [
    { name: 'twice', match: { operation: 'balance', account: 'pk_startup' }, error: { status: 503 }, count: 2 },
    { match: { operation: 'list' }, rateLimit: { requests: 2, per: '1h' } },
  ],
  replies: [{ match: { recipient: '27830000009' }, after: '10s', text: 'scripted' }],
  timeline: [{ at: '10m', setBalance: { balance: 7 } }],
};

/** Everything a user can read back, over the library and HTTP alike. */
async function observe(emulator: Emulator): Promise<unknown> {
  const control = async (path: string) => (await call(emulator, 'GET', `/_emulator${path}`, { key: false })).body;
  const feed = readEvents(await emulator.fetch(new Request('http://emulator.test/_emulator/ui/events')));
  const uiState = (await feed.next()).data;
  await feed.cancel();
  const accounts = emulator.accounts.list().items;
  return {
    snapshot: emulator.snapshot(),
    accounts,
    optOuts: accounts.flatMap((account) =>
      (['live', 'sandbox'] as const).map(
        (environment) => emulator.optOuts.list({ account: account.apiKey, environment }).items,
      ),
    ),
    messages: emulator.messages.list().items,
    replies: emulator.replies.list().items,
    webhooks: emulator.webhooks.list().items,
    chaos: emulator.webhooks.chaos(),
    scenario: emulator.scenario.get(),
    clock: emulator.clock.state(),
    requests: await control('/requests'),
    report: emulator.report({ format: 'json' }),
    uiState,
  };
}

/** Drops what the wall clock decides (how long a request or a webhook try took), which no reset can repeat. */
function withoutWallTime(observed: unknown): unknown {
  return JSON.parse(
    JSON.stringify(observed, (name, value: unknown) =>
      name === 'durationMs' || name === 'wallTime'
        ? undefined
        : typeof value === 'string'
          ? value.replace(/ in \d+ ms/g, '')
          : value,
    ),
  );
}

async function dirtyEverything(emulator: Emulator): Promise<void> {
  // Requests that journal, charge, consume faults and rate limits, and draw ids.
  await call(emulator, 'GET', '/v1/messages/balance', { key: 'pk_startup' });
  await call(emulator, 'GET', '/v1/messages');
  await call(emulator, 'GET', '/v1/messages');
  const sent = await send(emulator, {
    recipient: ['27830000009', '27831234567'],
    message: 'hello',
    client_reference: 'dirty',
  });
  await send(emulator, { recipient: ['27831234567'], message: 'later', schedule: '2026-11-22T12:00' }, 'sandbox');
  await call(emulator, 'POST', '/v1/messages', { body: { recipient: ['+27'], message: 'bad' } });
  emulator.setOutcomeDecider(() => [{ status: 'failed', afterMs: 1000 }]);
  emulator.accounts.create({
    apiKey: 'pk_runtime',
    balance: 3,
    webhookUrl: 'http://127.0.0.1:9/runtime',
    scopes: ['balance'],
  });
  emulator.accounts.update(apiKey, {
    signingSecret: 'changed',
    scopes: ['send'],
    live: { addBalance: 5, webhookUrl: 'http://127.0.0.1:9/hook' },
  });
  emulator.accounts.delete('pk_startup');
  emulator.optOuts.add('27831111111', { environment: 'sandbox' });
  emulator.webhooks.setChaos({ duplicateRate: 0.5, delayRate: 0.25, delay: '1m' });
  await emulator.clock.configure({ mode: 'manual', speed: 42 });
  await emulator.clock.advance('15m');
  await emulator.replies.inject(sent.id, { from: '27831234567', text: 'STOP' });
  emulator.scenario.set({
    version: 1,
    rules: [{ outcome: 'noroute' }],
    timeline: [{ at: '1h', addBalance: { credits: 1 } }],
  });
  await emulator.clock.advance('1m');
}

test('reset from a thoroughly dirtied emulator gives back exactly what start-up showed, and the same ids again', async () => {
  const emulator = makeEmulator({ scenario: startupScenario });
  const atStart = await observe(emulator);
  await dirtyEverything(emulator);
  expect(await observe(emulator)).not.toEqual(atStart);
  expect((await call(emulator, 'POST', '/_emulator/reset', { key: false, raw: '{}' })).status).toBe(200);
  expect(await observe(emulator)).toEqual(atStart);

  // The same requests again give the same state again (ids, random draws, journal ids, fault counts, rate limits).
  await dirtyEverything(emulator);
  const dirtyOnce = withoutWallTime(await observe(emulator));
  emulator.reset();
  expect(await observe(emulator)).toEqual(atStart);
  await dirtyEverything(emulator);
  expect(withoutWallTime(await observe(emulator))).toEqual(dirtyOnce);
  await emulator.close();
});
