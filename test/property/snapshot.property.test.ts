/** Property: whatever a sequence of operations leaves behind, its exported snapshot imports again and re-exports byte for byte. */

import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { call, control, makeEmulator, scheduleIn } from '../support/api.js';
import { runs } from './arbitraries.js';

type Operation =
  | { kind: 'send'; world: number; environment: 'live' | 'sandbox'; recipient: string; scheduleMinutes: number | null }
  | { kind: 'edit' | 'delete' | 'reply' | 'force'; pick: number }
  | { kind: 'advance'; world: number; duration: string | number }
  | { kind: 'world' }
  | { kind: 'scenario'; world: number }
  | { kind: 'dropWorld'; world: number };

const recipients = ['27831234567', '27830000001', '27830000002', '27830000009', '27830000007'];
const durations = ['1s', '5s', '90s', '1h30m', '5m1s', '2d', '0.4ms', 1.5, 2.5, 999, '7d'];

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('send' as const),
    world: fc.nat(3),
    environment: fc.constantFrom('live' as const, 'sandbox' as const),
    recipient: fc.constantFrom(...recipients),
    scheduleMinutes: fc.option(fc.integer({ min: 20, max: 600 }), { nil: null }),
  }),
  fc.record({
    kind: fc.constantFrom('edit' as const, 'delete' as const, 'reply' as const, 'force' as const),
    pick: fc.nat(),
  }),
  fc.record({ kind: fc.constant('advance' as const), world: fc.nat(3), duration: fc.constantFrom(...durations) }),
  fc.record({ kind: fc.constant('world' as const) }),
  fc.record({ kind: fc.constant('scenario' as const), world: fc.nat(3) }),
  fc.record({ kind: fc.constant('dropWorld' as const), world: fc.nat(3) }),
);

interface World {
  clock: string | null;
  apiKey: string;
  secret: string;
}

/** Applies one operation through the API and control API; refusals are part of the walk, not failures. */
async function apply(emulator: Emulator, worlds: World[], sent: string[], op: Operation): Promise<void> {
  const world = (index: number): World => worlds[index % worlds.length] as World;
  const picked = (index: number): string | undefined => sent[index % Math.max(1, sent.length)];
  switch (op.kind) {
    case 'send': {
      const { apiKey, secret } = world(op.world);
      const body: Record<string, unknown> = { recipient: [op.recipient], message: `to ${op.recipient}` };
      if (op.scheduleMinutes !== null) body.schedule = scheduleIn(op.scheduleMinutes);
      const prefix = op.environment === 'live' ? '/v1' : '/sandbox/v1';
      const reply = await call(emulator, 'POST', `${prefix}/messages`, { body, key: apiKey, sign: secret });
      if (reply.status === 201) sent.push(reply.body.id);
      return;
    }
    case 'edit':
    case 'delete':
    case 'reply':
    case 'force': {
      const id = picked(op.pick);
      if (id === undefined) return;
      const message = (await control(emulator, 'GET', `/messages/${id}`)).body;
      const owner = worlds.find((candidate) => candidate.apiKey === message.account);
      if (owner === undefined) return;
      const path = `${message.environment === 'live' ? '/v1' : '/sandbox/v1'}/messages/${id}`;
      if (op.kind === 'edit')
        await call(emulator, 'PATCH', path, { body: { message: 'edited' }, key: owner.apiKey, sign: owner.secret });
      else if (op.kind === 'delete') await call(emulator, 'DELETE', path, { key: owner.apiKey });
      else if (op.kind === 'reply') await control(emulator, 'POST', `/messages/${id}/replies`, { text: 'STOP' });
      else await control(emulator, 'POST', `/messages/${id}/status`, { status: 'undelivered' });
      return;
    }
    case 'advance': {
      const { clock } = world(op.world);
      await control(emulator, 'POST', clock === null ? '/clock' : `/clocks/${clock}`, { advance: op.duration });
      return;
    }
    case 'world': {
      const clock = (await control(emulator, 'POST', '/clocks', { name: `world ${worlds.length}` })).body.id;
      const apiKey = `pk_world_${worlds.length}`;
      const secret = `sk_world_${worlds.length}`;
      await control(emulator, 'POST', '/accounts', { apiKey, signingSecret: secret, clock });
      worlds.push({ clock, apiKey, secret });
      return;
    }
    case 'scenario': {
      const { apiKey } = world(op.world);
      await call(emulator, 'PUT', `/_emulator/accounts/${apiKey}/scenario`, {
        raw: JSON.stringify({ rules: [{ match: { recipient: '27831234567' }, outcome: 'undelivered' }] }),
        key: false,
      });
      return;
    }
    case 'dropWorld': {
      const target = world(op.world);
      if (target.clock === null) return;
      await control(emulator, 'DELETE', `/clocks/${target.clock}`);
      worlds.splice(worlds.indexOf(target), 1);
    }
  }
}

async function exportedText(emulator: Emulator): Promise<string> {
  const response = await emulator.fetch(new Request('http://emulator.test/_emulator/snapshot'));
  expect(response.status).toBe(200);
  return response.text();
}

test('any sequence of sends, edits, deletes, replies, forced outcomes, clock moves, worlds and scenarios exports a snapshot that imports with default options and re-exports byte for byte', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), async (operations) => {
      const emulator = makeEmulator({ webhookUrl: 'http://127.0.0.1:9/hook', webhookRetries: 0 });
      try {
        const worlds: World[] = [{ clock: null, apiKey: 'pk_test_sms_emulator', secret: 'sk_test_sms_emulator' }];
        const sent: string[] = [];
        for (const op of operations) await apply(emulator, worlds, sent, op);
        const first = await exportedText(emulator);
        const imported = await emulator.fetch(
          new Request('http://emulator.test/_emulator/snapshot', { method: 'PUT', body: first }),
        );
        expect(imported.status, await imported.clone().text()).toBe(200);
        expect(await exportedText(emulator)).toBe(first);
      } finally {
        await emulator.close();
      }
    }),
    runs(60),
  );
}, 180_000);
