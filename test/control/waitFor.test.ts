import { expect, test } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { createEmulator, createWebhookCatcher, type EmulatorOptions } from '../../src/index.js';
import { waitFor } from '../../src/control/waitFor.js';
import { apiKey, makeEmulator, origin, scheduleIn, send, signingSecret, startTime } from '../support/api.js';

function setup(options: EmulatorOptions = {}) {
  const emulator = makeEmulator(options);
  const sms = createClient({ baseUrl: origin, apiKey, signingSecret, fetch: emulator.fetch });
  return { emulator, sms };
}

const at = (ms: number): number => Date.parse(startTime) + ms;

test('moves a manual clock just far enough for the message to be delivered', async () => {
  const { emulator, sms } = setup();
  const sent = await sms.send({ recipient: ['27831234567'], message: 'Hi' });
  const message = await emulator.waitFor(sent.id).toReach('delivered', { within: '5m' });
  expect(message.status).toBe('delivered');
  expect(emulator.clock.state().now).toBe(at(5_000));
});

test('a clock between whole seconds stops exactly at the delivery too, embedded and over HTTP (views show times to the second)', async () => {
  const emulator = createEmulator({ clock: 'manual', startTime: '2030-01-01T08:00:00.250Z' });
  const { origin: listening } = await emulator.listen({ port: 0 });
  try {
    for (const over of ['embedded', 'http'] as const) {
      const world = emulator.worlds.create({ account: {} });
      const client = createClient({ baseUrl: listening, ...world.account });
      const sent = await client.send({ recipient: ['27831234567'], message: `Hi ${over}` });
      const start = emulator.clocks.get(world.clock.id).now;
      if (over === 'embedded') await emulator.waitFor(sent.id).toReach('delivered', { within: '1h' });
      else {
        const answer = await fetch(`${listening}/_emulator/messages/${sent.id}/wait`, {
          method: 'POST',
          body: JSON.stringify({ status: 'delivered', within: '1h' }),
        });
        expect(((await answer.json()) as { clock: { now: number } }).clock.now).toBe(start + 5_000);
      }
      expect(emulator.clocks.get(world.clock.id).now).toBe(start + 5_000);
      expect(emulator.messages.get(sent.id).status).toBe('delivered');
    }
  } finally {
    await emulator.close();
  }
});

test('stops at the status asked for, without moving past it', async () => {
  const { emulator, sms } = setup();
  const sent = await sms.send({ recipient: ['27831234567'], message: 'Hi' });
  await emulator.waitFor(sent.id).toReach('submitted');
  expect(emulator.messages.get(sent.id).status).toBe('submitted');
  expect(emulator.clock.state().now).toBe(at(1_000));
});

test('goes through the schedule time of a scheduled message', async () => {
  const { emulator, sms } = setup();
  const scheduled = await sms.schedule({ recipient: ['27831234567'], message: 'Later', schedule: scheduleIn(30) });
  await emulator.waitFor(scheduled.id).toReach('delivered', { within: '1h' });
  expect(emulator.clock.state().now).toBe(at(30 * 60_000 + 5_000));
});

test('fails with the message history when the status is not reached within the time given', async () => {
  const { emulator, sms } = setup();
  const sent = await sms.send({ recipient: ['27830000006'], message: 'Slow' });
  const error = await emulator
    .waitFor(sent.id)
    .toReach('delivered', { within: '5m' })
    .catch((caught: Error) => caught);
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toMatch(/did not reach "delivered": it is "submitted" after 5m/);
  expect((error as Error).message).toMatch(/history: pending at .*, submitted at /);
  expect((error as Error).message).toMatch(/leg 27830000006: .*upcoming: delivered at /);
  expect(emulator.clock.state().now).toBe(at(5 * 60_000));
});

test('fails at once when the message ends in another final status', async () => {
  const { emulator, sms } = setup();
  const sent = await sms.send({ recipient: ['27830000002'], message: 'Nope' });
  await expect(emulator.waitFor(sent.id).toReach('delivered', { within: '1h' })).rejects.toThrow(/ended "undelivered"/);
  expect(emulator.clock.state().now).toBe(at(5_000));
});

test('stops at the deadline when the next change of the message lies beyond it', async () => {
  const { emulator, sms } = setup();
  const sent = await sms.send({ recipient: ['27830000003'], message: 'Lost' });
  await expect(emulator.waitFor(sent.id).toReach('expired', { within: '1h' })).rejects.toThrow(
    /it is "submitted" after 1h/,
  );
  expect(emulator.clock.state().now).toBe(at(3_600_000));
  await expect(emulator.waitFor(sent.id).toReach('expired', { within: '48h' })).resolves.toMatchObject({
    status: 'expired',
  });
});

test('watches a realtime clock instead of moving it', async () => {
  const emulator = createEmulator({ clock: 'realtime', speed: 10_000, seed: 'realtime' });
  const sms = createClient({ baseUrl: origin, apiKey, signingSecret, fetch: emulator.fetch });
  const sent = await sms.send({ recipient: ['27831234567'], message: 'Hi' });
  await expect(emulator.waitFor(sent.id).toReach('delivered', { within: '1h' })).resolves.toMatchObject({
    status: 'delivered',
  });
  await emulator.close();
});

test('refuses a within that is not a duration', async () => {
  const { emulator, sms } = setup();
  const sent = await sms.send({ recipient: ['27831234567'], message: 'Hi' });
  await expect(emulator.waitFor(sent.id).toReach('delivered', { within: 'soon' })).rejects.toThrow(
    /"soon" is not a duration/,
  );
});

test('clock.now() is the emulator time as a Date', async () => {
  const { emulator } = setup();
  expect(emulator.clock.now()).toEqual(new Date(startTime));
  await emulator.clock.advance('90s');
  expect(emulator.clock.now()).toEqual(new Date(at(90_000)));
});

test('a message that got there is not failed when a concurrent test moved the clock past the deadline between reads', async () => {
  const emulator = makeEmulator();
  const sent = await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
  let reads = 0;
  // Another test moves the clock two hours on right after this wait's first read of the message in its loop (the read
  // before it finds the message's account and so its clock).
  const racing = {
    clock: emulator.clock,
    clocks: emulator.clocks,
    accounts: emulator.accounts,
    webhooks: emulator.webhooks,
    messages: {
      async get(id: string) {
        const view = emulator.messages.get(id);
        reads += 1;
        if (reads === 2) await emulator.clock.advance('2h');
        return view;
      },
    },
  };
  await expect(waitFor(racing, sent.id).toReach('delivered', { within: '1m' })).resolves.toMatchObject({
    status: 'delivered',
  });
});

test("resolves only after the webhooks of the move that got the message there were tried, when that move was a concurrent test's", async () => {
  const catcher = await createWebhookCatcher();
  const emulator = makeEmulator({ webhookUrl: catcher.url });
  try {
    const sent = await send(emulator, { recipient: ['27831234567'], message: 'Hi' });
    // Another test's move delivers the message; its webhook tries are still under way when this wait reads it.
    void emulator.clock.advance('1m');
    const message = await waitFor(emulator, sent.id).toReach('delivered', { within: '1m' });
    expect(message.status).toBe('delivered');
    expect(catcher.received.map((request) => request.body.status)).toEqual(['submitted', 'delivered']);
  } finally {
    await emulator.close();
    await catcher.close();
  }
});
