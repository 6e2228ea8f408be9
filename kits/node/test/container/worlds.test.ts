/** Worlds on the one container the globalSetup started: each test its own account and clock, webhooks back to the host. */

import { readFileSync } from 'node:fs';
import { createSmsTest } from 'sms-emulator/vitest';

const test = createSmsTest();
const segments = JSON.parse(
  readFileSync(new URL('../../../../test-vectors/segments.json', import.meta.url), 'utf8'),
) as {
  cases: {
    name: string;
    text: string;
    encoding: string;
    units: number;
    segments: number;
    ucs2Trigger: string | null;
  }[];
};

test('a message sent in a world is delivered and its webhook reaches the catcher on the host', async ({
  sms,
  expect,
}) => {
  const sent = await sms.client.send({ recipient: '27831234567', message: 'From the container' });
  await sms.waitFor(sent.id).toReach('delivered');
  await expect(sms.client.get(sent.id)).resolves.toHaveStatus('delivered');
  expect(sms).toHaveReceivedWebhook({ id: sent.id, status: 'delivered' });
});

// Two worlds on one container at once: neither sees the other's messages, balance or time.
let firstSent: () => void = () => {};
const sentFirst = new Promise<void>((resolve) => (firstSent = resolve));

test.concurrent('two worlds on one container: the first spends and moves its clock', async ({ sms, expect }) => {
  await sms.client.send({ recipient: '27831234567', message: 'Only mine' });
  await sms.clock.advance('1d');
  firstSent();
  expect(await sms.messages()).toHaveLength(1);
});

test.concurrent('two worlds on one container: the second sees none of it', async ({ sms, expect }) => {
  const before = sms.now().getTime();
  await sentFirst;
  expect(await sms.messages()).toEqual([]);
  expect((await sms.clock.state()).now).toBe(before);
  expect(sms.webhooks()).toEqual([]);
});

test('every segments vector is counted by the emulator in the container as the vectors say', async ({
  sms,
  expect,
}) => {
  for (const vector of segments.cases) {
    const why = await sms.emulator.cost({ text: vector.text });
    expect({
      name: vector.name,
      encoding: why.encoding,
      units: why.units,
      segments: why.segments,
      trigger: why.triggers[0]?.char ?? null,
    }).toEqual({
      name: vector.name,
      encoding: vector.encoding,
      units: vector.units,
      segments: vector.segments,
      trigger: vector.ucs2Trigger,
    });
  }
});
