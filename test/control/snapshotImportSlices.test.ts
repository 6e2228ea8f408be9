/** A snapshot import over HTTP works in slices: health answers during it, and what is too big or too deep is refused untouched. */

import { request } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { makeEmulator, send } from '../support/api.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** An exported snapshot grown to `count` messages: the one message sent, copied under fresh ids. */
async function grownSnapshot(source: Emulator, count: number): Promise<string> {
  await send(source, { recipient: ['27831234567'], message: 'Hello' });
  await source.clock.advance('10s');
  const snapshot = source.snapshot();
  const [message] = snapshot.messages;
  snapshot.messages = Array.from({ length: count }, (_, index) => ({ ...message!, id: `copy-${index}` }));
  return JSON.stringify(snapshot);
}

/** Answers of `path` over a socket: status and parsed body. */
function get(origin: string, path: string): Promise<{ status: number; body: unknown }> {
  return fetch(`${origin}${path}`).then(async (answer) => ({ status: answer.status, body: await answer.json() }));
}

test('a health request made while a large snapshot import is in progress is answered before the import finishes', async () => {
  emulator = makeEmulator({ balance: 1_000_000 });
  const text = await grownSnapshot(emulator, 20_000);
  const { origin } = await emulator.listen({ host: '127.0.0.1', port: 0 });
  const body = Buffer.from(text);
  const order: string[] = [];
  const imported = new Promise<number>((resolve, reject) => {
    const put = request(
      `${origin}/_emulator/snapshot`,
      { method: 'PUT', headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (answer) => {
        answer.resume();
        answer.on('end', () => {
          order.push('import answered');
          resolve(answer.statusCode ?? 0);
        });
      },
    );
    put.on('error', reject);
    // All but the last byte first; the import starts the moment the last one arrives, and health is asked right after.
    put.write(body.subarray(0, body.length - 1), () => {
      put.end(body.subarray(body.length - 1), () => {
        void get(origin, '/_emulator/health').then(({ status }) => order.push(`health ${status}`));
      });
    });
  });
  expect(await imported).toBe(200);
  expect(order).toEqual(['health 200', 'import answered']);
  expect(emulator.messages.list().total).toBe(20_000);
}, 120_000);

test('a snapshot over maxSnapshotSize is SNAPSHOT_TOO_LARGE and changes nothing', async () => {
  emulator = makeEmulator({ maxSnapshotSize: 4096 });
  await send(emulator, { recipient: ['27831234567'], message: 'before' });
  const before = emulator.snapshot();
  const padded = `${JSON.stringify(before)}${' '.repeat(8192)}`;
  const refused = await emulator.fetch(
    new Request('http://emulator.test/_emulator/snapshot', { method: 'PUT', body: padded }),
  );
  expect(refused.status).toBe(413);
  expect(await refused.json()).toMatchObject({ message: 'SNAPSHOT_TOO_LARGE' });
  expect(emulator.snapshot()).toEqual(before);
});

test('a snapshot nested deeper than 512 levels is SNAPSHOT_TOO_DEEP and changes nothing', async () => {
  emulator = makeEmulator();
  await send(emulator, { recipient: ['27831234567'], message: 'before' });
  const before = emulator.snapshot();
  const deep = JSON.stringify({ ...before, messages: [] }).replace(
    '"replies":[]',
    `"replies":[${'['.repeat(600)}${']'.repeat(600)}]`,
  );
  const refused = await emulator.fetch(
    new Request('http://emulator.test/_emulator/snapshot', { method: 'PUT', body: deep }),
  );
  expect(refused.status).toBe(400);
  expect(await refused.json()).toMatchObject({ message: 'SNAPSHOT_TOO_DEEP' });
  expect(emulator.snapshot()).toEqual(before);
});

test('a body far denser in values than any export ([{},{},…]) is SNAPSHOT_TOO_LARGE within its first bytes, and changes nothing', async () => {
  emulator = makeEmulator();
  await send(emulator, { recipient: ['27831234567'], message: 'before' });
  const before = emulator.snapshot();
  const junk = `{"version":1,"messages":[${Array.from({ length: 2_000_000 }, () => '{}').join(',')}]}`;
  const refused = await emulator.fetch(
    new Request('http://emulator.test/_emulator/snapshot', { method: 'PUT', body: junk }),
  );
  expect(refused.status).toBe(413);
  const { message, description } = (await refused.json()) as { message: string; description: string };
  expect(message).toBe('SNAPSHOT_TOO_LARGE');
  // Refused as soon as the values outnumber the bytes read: long before the 6 MB end, holding a small part of it.
  const readUpTo = Number(/in its first (\d+) bytes/.exec(description)?.[1]);
  expect(readUpTo).toBeLessThan(junk.length / 10);
  expect(emulator.snapshot()).toEqual(before);
});

test('a snapshot whose last message is broken is refused naming it, and changes nothing', async () => {
  emulator = makeEmulator({ balance: 1_000_000 });
  const source = makeEmulator({ balance: 1_000_000 });
  const snapshot = JSON.parse(await grownSnapshot(source, 500)) as { messages: { status: string }[] };
  snapshot.messages[499]!.status = 'lost';
  await send(emulator, { recipient: ['27831234567'], message: 'before' });
  const before = emulator.snapshot();
  const refused = await emulator.fetch(
    new Request('http://emulator.test/_emulator/snapshot', { method: 'PUT', body: JSON.stringify(snapshot) }),
  );
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { description: string }).description).toContain('messages.499.status');
  expect(emulator.snapshot()).toEqual(before);
  await source.close();
});

test('a snapshot parsed in slices is the snapshot JSON.parse reads: __proto__ stays a field, a repeated key keeps its last value', async () => {
  emulator = makeEmulator();
  const snapshot = JSON.stringify(emulator.snapshot());
  const withProto = snapshot.replace('"version":1', '"version":2,"version":1,"__proto__":{"polluted":true}');
  const refused = await emulator.fetch(
    new Request('http://emulator.test/_emulator/snapshot', { method: 'PUT', body: withProto }),
  );
  // The repeated version reads as 1; __proto__ is an unknown field, not the object's prototype.
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { description: string }).description).toContain('__proto__');
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});
