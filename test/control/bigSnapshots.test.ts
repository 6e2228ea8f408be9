/** A snapshot of any size the emulator exports imports again with the default options: the import has its own body limit. */

import { expect, test } from 'vitest';
import { connect } from '../../src/index.js';
import { control, makeEmulator, send } from '../support/api.js';

test('a 20,000-message snapshot round-trips with default options, through HTTP and through connect()', async () => {
  const emulator = makeEmulator({ balance: 1_000_000 });
  for (let i = 0; i < 20_000; i++) await send(emulator, { recipient: ['27831234567'], message: `Message ${i}` });
  await emulator.clock.advance('10s');
  const { origin } = await emulator.listen({ host: '127.0.0.1', port: 0 });
  try {
    const remote = connect(origin);
    const exported = await remote.snapshot();
    const text = JSON.stringify(exported);
    expect(text.length).toBeGreaterThan(8 * 1024 * 1024); // far past the 1 MiB limit of every other request

    const overHttp = await fetch(`${origin}/_emulator/snapshot`, { method: 'PUT', body: text });
    expect(overHttp.status).toBe(200);
    await remote.restore(exported);

    expect(JSON.stringify(await remote.snapshot())).toBe(text);
    expect(emulator.messages.list().total).toBe(20_000);
  } finally {
    await emulator.close();
  }
}, 120_000);

test('the snapshot import limit is its own option; every other control request keeps the body limit', async () => {
  const emulator = makeEmulator({ maxSnapshotSize: 2048, maxBodySize: 100_000 });
  const snapshot = JSON.stringify(emulator.snapshot());
  const padded = `${snapshot}${' '.repeat(4096)}`;
  const refused = await control(emulator, 'PUT', '/snapshot', undefined, {});
  expect(refused.status).toBe(400); // no body at all: not a snapshot
  const tooLarge = await emulator.fetch(
    new Request('http://emulator.test/_emulator/snapshot', {
      method: 'PUT',
      headers: { 'content-length': String(Buffer.byteLength(padded)) },
      body: padded,
    }),
  );
  expect(tooLarge.status).toBe(413);
  expect(((await tooLarge.json()) as { description: string }).description).toContain('2048');
  const scenario = await control(emulator, 'PUT', '/scenario', { version: 1, notes: 'x'.repeat(4096) });
  expect(scenario.status).not.toBe(413);
});
