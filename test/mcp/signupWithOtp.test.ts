import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createClient } from '../../src/client/index.js';
import { type Emulator, createEmulator } from '../../src/index.js';
import { connect } from '../../src/testing/connect.js';
import { callTool, httpClient, stdioClient } from '../support/mcpClients.js';

/**
 * The app under test: a sign-up that texts a six-digit code valid for 10 minutes of the world's clock. It knows only
 * what an app is configured with: the API's address, a key and a secret, and where its clock comes from.
 */
function signupApp(config: { origin: string; apiKey: string; signingSecret: string; now: () => Promise<number> }) {
  const sms = createClient({ baseUrl: config.origin, apiKey: config.apiKey, signingSecret: config.signingSecret });
  const pending = new Map<string, { code: string; expires: number }>();
  let next = 271828;
  return {
    async start(phone: string): Promise<void> {
      const code = String((next = (next * 31 + 7) % 1_000_000)).padStart(6, '0');
      pending.set(phone, { code, expires: (await config.now()) + 10 * 60_000 });
      await sms.send({ recipient: phone, message: `Your sign-up code is ${code}. It expires in 10 minutes.` });
    },
    async verify(phone: string, code: string): Promise<'welcome' | 'wrong code' | 'expired'> {
      const entry = pending.get(phone);
      if (entry === undefined || entry.code !== code) return 'wrong code';
      return (await config.now()) > entry.expires ? 'expired' : 'welcome';
    },
  };
}

/** The flow an agent drives: open a world, let the app text a code, read it, check it; then let one expire. */
async function signupFlow(agent: Client, phone: string) {
  const world = await callTool(agent, 'open_world', { name: 'signup' });
  const origin = new URL(world.live as string).origin;
  const control = connect(origin);
  const app = signupApp({
    origin,
    apiKey: world.apiKey,
    signingSecret: world.signingSecret,
    now: async () => (await control.clocks.get(world.clock.id)).now,
  });
  await app.start(phone);
  const first = await callTool(agent, 'latest_code', { to: phone, within: '5s' });
  const welcomed = await app.verify(phone, first.code);
  await app.start(phone);
  const second = await callTool(agent, 'latest_code', { to: phone });
  const moved = await callTool(agent, 'move_clock', { advance: '11m' });
  const late = await app.verify(phone, second.code);
  return { world, first, second, welcomed, moved, late };
}

let emulator: Emulator;
let origin: string;
beforeAll(async () => {
  emulator = createEmulator({ seed: 'mcp-otp' });
  ({ origin } = await emulator.listen({ port: 0 }));
});
afterAll(() => emulator.close());

test('an agent over HTTP reads the one-time code the app texted, and the code expires when it moves the clock', async () => {
  const agent = await httpClient(origin);
  const flow = await signupFlow(agent, '27831234567');
  expect(flow.first.code).toMatch(/^\d{6}$/);
  expect(flow.first.text).toBe(`Your sign-up code is ${flow.first.code}. It expires in 10 minutes.`);
  expect(flow.welcomed).toBe('welcome');
  expect(flow.second.code).not.toBe(flow.first.code);
  expect(Date.parse(flow.moved.time) - Date.parse(flow.world.clock.time)).toBeGreaterThanOrEqual(11 * 60_000);
  expect(flow.late).toBe('expired');
  await agent.close();
});

test('an agent over stdio runs the same flow against the emulator `sms-emulator mcp` started', async () => {
  const agent = await stdioClient();
  const flow = await signupFlow(agent, '27831234567');
  expect(flow.welcomed).toBe('welcome');
  expect(flow.late).toBe('expired');
  await agent.close();
});

test('latest_code answers MCP_NO_MESSAGE, naming the number, when the app sent nothing there', async () => {
  const agent = await httpClient(origin);
  const answer = await callTool(agent, 'latest_code', { to: '27820000000' });
  expect(answer.isError).toBe(true);
  expect(answer.error.code).toBe('MCP_NO_MESSAGE');
  expect(answer.error.description).toContain('27820000000');
  await agent.close();
});
