/** The bin on a real socket never posts into its own routes: refused where a URL is set, not sent when it becomes itself later. */

import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { afterEach, expect, test } from 'vitest';
import { type EmulatorProcess, startEmulator } from '../../src/testing/startEmulator.js';

const running: EmulatorProcess[] = [];
afterEach(async () => {
  for (const emulator of running.splice(0)) await emulator.stop();
});

async function start(options: Parameters<typeof startEmulator>[0]): Promise<EmulatorProcess> {
  const emulator = await startEmulator({ clock: 'manual', seed: 'self-loop', ...options });
  running.push(emulator);
  return emulator;
}

/** A port free a moment ago: what a URL names before the emulator takes it. */
function freePort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    }),
  );
}

const apiKey = 'pk_test_sms_emulator';
const auth = { authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}` };

/** Sends one message through the API (the default account's secret signs it) and moves the clock past its delivery. */
async function sendAndDeliver(emulator: EmulatorProcess): Promise<string> {
  const fields = { recipient: ['27831234567'], message: 'Hi' };
  const { signature } = await emulator.sign(fields);
  const answer = await fetch(`${emulator.info.live}/v1/messages`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', signature },
    body: JSON.stringify(fields),
  });
  expect(answer.status).toBe(201);
  const { id } = (await answer.json()) as { id: string };
  await emulator.clock.advance('5s');
  return id;
}

test('its own redeliver route under each loopback name and its host name is refused as a webhook URL over the control API, changing nothing', async () => {
  const emulator = await start({ port: 0 });
  const { port } = emulator.info;
  const hosts = ['127.0.0.1', '127.0.0.2', 'localhost', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0', '[::]', hostname()];
  for (const host of hosts) {
    const url = `http://${host}:${port}/_emulator/webhooks/e/redeliver`;
    await expect(emulator.accounts.update(apiKey, { live: { webhookUrl: url } }), url).rejects.toThrow(
      /WEBHOOK_URL_IS_EMULATOR/,
    );
    await expect(emulator.worlds.create({ account: { webhookUrl: url } }), url).rejects.toThrow(
      /WEBHOOK_URL_IS_EMULATOR/,
    );
  }
  expect((await emulator.accounts.get(apiKey)).live.webhookUrl).toBeNull();
  expect((await emulator.clocks.list()).items).toEqual([]);
});

test('a --webhook-url naming the port it then listens on is never posted to: each event one try, failed, saying why; a redeliver to its own redeliver route one more', async () => {
  // The seeded run makes the same event ids: the first run finds the id, the second points its URL at that event's redeliver route.
  const first = await start({ port: 0 });
  const [event] = (await first.webhooks.list({ message: await sendAndDeliver(first) })).items;
  await first.stop();
  const port = await freePort();
  const emulator = await start({
    port,
    webhookUrl: `http://localhost:${port}/_emulator/webhooks/${event?.id as string}/redeliver`,
  });
  const events = (await emulator.webhooks.list({ message: await sendAndDeliver(emulator) })).items;
  expect(events[0]?.id).toBe(event?.id);
  expect(events.map((each) => [each.status, each.state, each.attempts.length])).toEqual([
    ['submitted', 'failed', 1],
    ['delivered', 'failed', 1],
  ]);
  expect(events[0]?.attempts[0]?.error).toMatch(
    new RegExp(`^not sent: localhost:${port} \\(127\\.0\\.0\\.1\\) is this emulator itself`),
  );
  const again = await emulator.webhooks.redeliver(event?.id as string);
  expect(again.attempts).toHaveLength(2);
  expect((await emulator.webhooks.list()).items.reduce((tries, each) => tries + each.attempts.length, 0)).toBe(3);
  expect((await fetch(`${emulator.info.origin}/_emulator/health`)).status).toBe(200);
});
