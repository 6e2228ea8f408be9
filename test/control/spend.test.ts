/** The spend operation: what an account spent, its costliest messages explained, the same over HTTP and in process. */

import { expect, test } from 'vitest';
import type { ControlHandle, HandleMode } from '../../src/control/handle.js';
import { remoteHandle } from '../../src/control/remoteHandle.js';
import type { Emulator } from '../../src/index.js';
import { apiKey, call, fetchTransport, makeEmulator, scheduleIn, send } from '../support/api.js';

const handles: [string, (emulator: Emulator) => ControlHandle<HandleMode>][] = [
  ['in-process', (emulator) => emulator],
  ['remote', (emulator) => remoteHandle(fetchTransport(emulator))],
];

for (const [kind, handleOf] of handles) {
  test(`${kind}: accounts.spend totals the account's credits and explains its costliest messages, costliest first`, async () => {
    const emulator = makeEmulator();
    await send(emulator, { recipient: ['27831234567'], message: 'Thanks' });
    await send(emulator, {
      recipient: ['27831234567', '27831234568'],
      message: `Your parcel’s here ${'x'.repeat(60)}`,
    });
    await send(emulator, { recipient: ['27831234569'], message: 'Bye' });
    const spend = await handleOf(emulator).accounts.spend(apiKey);
    expect(spend).toMatchObject({ account: apiKey, credits: 6, messages: 3 });
    expect(spend.top.map((one) => [one.credit, one.recipients, one.encoding, one.segments])).toEqual([
      [4, 2, 'UCS-2', 2],
      [1, 1, 'GSM-7', 1],
      [1, 1, 'GSM-7', 1],
    ]);
    // Ties keep send order: Thanks was sent before Bye.
    expect(spend.top[1]?.line).toBe('1 credit: to 27831234567: "Thanks" (GSM-7, 1 segment × 1 recipient)');
    expect(spend.top[0]?.trigger).toMatchObject({ char: '’', codePoint: 'U+2019', position: 12, suggestion: "'" });
    expect(spend.top[0]?.line).toMatch(
      /^4 credits: to 27831234567, 27831234568: "Your parcel’s here x+…" \(UCS-2, 2 segments × 2 recipients; UCS-2 forced by "’" at 12\)$/,
    );
    expect(spend.summary).toBe(
      `spent 6 credits on 3 messages. Top spenders:${spend.top.map((one) => `\n  - ${one.line}`).join('')}`,
    );
  });

  test(`${kind}: accounts.spend of an unknown account is CONTROL_NOT_FOUND naming the key`, async () => {
    const handle = handleOf(makeEmulator());
    await expect(async () => handle.accounts.spend('pk_nobody')).rejects.toThrow(/CONTROL_NOT_FOUND.*pk_nobody/);
  });
}

test('GET /_emulator/accounts/{key}/spend counts both environments and scheduled sends at what they were charged, names five at most, and says none without messages', async () => {
  const emulator = makeEmulator();
  emulator.accounts.create({ apiKey: 'pk_quiet' });
  expect((await call(emulator, 'GET', '/_emulator/accounts/pk_quiet/spend', { key: false })).body).toEqual({
    account: 'pk_quiet',
    credits: 0,
    messages: 0,
    top: [],
    summary: 'spent 0 credits on 0 messages. Top spenders: none',
  });
  for (let sent = 0; sent < 6; sent += 1) await send(emulator, { recipient: ['27831234567'], message: `Hi ${sent}` });
  await send(emulator, { recipient: ['27831234567'], message: 'Sandbox' }, 'sandbox');
  const later = await send(emulator, { recipient: ['27831234567'], message: 'Later', schedule: scheduleIn(60) });
  expect((await call(emulator, 'DELETE', `/v1/messages/${later.id}`)).status).toBe(200);
  const answer = await call(emulator, 'GET', `/_emulator/accounts/${apiKey}/spend`, { key: false });
  expect(answer.status).toBe(200);
  // A scheduled message is charged when it goes out: the deleted one counts, at no cost.
  expect(answer.body).toMatchObject({ credits: 7, messages: 8 });
  expect(answer.body.top).toHaveLength(5);
});
