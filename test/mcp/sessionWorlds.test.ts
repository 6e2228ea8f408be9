import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Emulator, createEmulator } from '../../src/index.js';
import { agentTools } from '../../src/mcp/agentTools.js';
import { callTool, endSession, httpClient } from '../support/mcpClients.js';

let emulator: Emulator;
let origin: string;
beforeAll(async () => {
  emulator = createEmulator({ seed: 'mcp-worlds', mcpSessionLimit: 3 });
  ({ origin } = await emulator.listen({ port: 0 }));
});
afterAll(() => emulator.close());

const contract = JSON.parse(readFileSync(new URL('../../test-vectors/kit-contract.json', import.meta.url), 'utf8')) as {
  operations: { id: string }[];
};

test('the tools are every operation of the kit contract (by its id, dots as underscores) beside the agent tools', async () => {
  const agent = await httpClient(origin);
  const names = (await agent.listTools()).tools.map((tool) => tool.name);
  expect(names.sort()).toEqual(
    [...contract.operations.map((op) => op.id.replace('.', '_')), ...agentTools.map((tool) => tool.name)].sort(),
  );
  await endSession(agent);
});

test('two sessions doing the same flow at once each see only their own world', async () => {
  const [alice, bob] = await Promise.all([httpClient(origin), httpClient(origin)]);
  const [aliceWorld, bobWorld] = await Promise.all([callTool(alice, 'open_world'), callTool(bob, 'open_world')]);
  expect(aliceWorld.apiKey).not.toBe(bobWorld.apiKey);
  await Promise.all([
    callTool(alice, 'send_sms', { to: '27831234567', message: 'Alice code 111111' }),
    callTool(bob, 'send_sms', { to: '27831234567', message: 'Bob code 222222' }),
  ]);
  const [aliceCode, bobCode] = await Promise.all([
    callTool(alice, 'latest_code', { to: '27831234567' }),
    callTool(bob, 'latest_code', { to: '27831234567' }),
  ]);
  expect([aliceCode.code, bobCode.code]).toEqual(['111111', '222222']);

  const aliceList = await callTool(alice, 'messages_list', {});
  expect(aliceList.items.map((message: { message: string }) => message.message)).toEqual(['Alice code 111111']);
  // Bob cannot read, move or reply to Alice's message by its id, nor name her account, clock or webhooks.
  for (const [tool, args] of [
    ['messages_get', { id: aliceCode.messageId }],
    ['messages_forceStatus', { id: aliceCode.messageId, status: 'failed' }],
    ['replies_inject', { id: aliceCode.messageId, text: 'hi' }],
    ['messages_list', { account: aliceWorld.apiKey }],
    ['accounts_get', { key: aliceWorld.apiKey }],
    ['clocks_move', { id: aliceWorld.clock.id, advance: '1h' }],
    ['webhooks_list', { account: aliceWorld.apiKey }],
  ] as const) {
    const answer = await callTool(bob, tool, args);
    expect(answer.isError, tool).toBe(true);
    expect(answer.error.code, tool).toBe('MCP_OUTSIDE_WORLD');
  }
  await callTool(bob, 'move_clock', { advance: '2h' });
  const aliceClock = await callTool(alice, 'clock_state');
  expect(aliceClock.time).toBe(aliceWorld.clock.time);
  expect((await emulator.messages.get(aliceCode.messageId)).status).not.toBe('failed');
  const aliceAccount = await callTool(alice, 'accounts_get');
  expect(aliceAccount.live.balance).toBe(aliceWorld.balance.live - 1);
  await Promise.all([endSession(alice), endSession(bob)]);
});

test('whole-emulator operations are refused in a session and change nothing', async () => {
  const agent = await httpClient(origin);
  await callTool(agent, 'send_sms', { to: '27831234567', message: 'kept' });
  const before = emulator.messages.list({}).total;
  for (const tool of ['snapshot', 'restore', 'scenario_set', 'accounts_list', 'clocks_list', 'webhooks_setChaos']) {
    const answer = await callTool(agent, tool, {});
    expect(answer.error?.code, tool).toBe('MCP_OUTSIDE_WORLD');
  }
  // A reset in a session resets its own account only.
  expect((await callTool(agent, 'reset')).isError).toBe(false);
  expect(emulator.messages.list({}).total).toBe(before - 1);
  await endSession(agent);
});

test('ending a session deletes its world: account, clock and messages', async () => {
  const agent = await httpClient(origin);
  const world = await callTool(agent, 'open_world');
  const sent = await callTool(agent, 'send_sms', { to: '27831234567', message: 'goes with the world' });
  await endSession(agent);
  expect(() => emulator.accounts.get(world.apiKey)).toThrow(/CONTROL_NOT_FOUND/);
  expect(() => emulator.clocks.get(world.clock.id)).toThrow(/CONTROL_NOT_FOUND/);
  expect(() => emulator.messages.get(sent.body.id)).toThrow(/CONTROL_NOT_FOUND/);
});

test('one session more than mcpSessionLimit is refused with MCP_SESSION_LIMIT, and a slot frees when one ends', async () => {
  const agents = await Promise.all([httpClient(origin), httpClient(origin), httpClient(origin)]);
  await expect(httpClient(origin)).rejects.toThrow(/MCP_SESSION_LIMIT/);
  await endSession(agents[0]!);
  const another = await httpClient(origin);
  await Promise.all([...agents.slice(1), another].map(endSession));
});

test('a world the emulator reset deleted is refused with CONTROL_NOT_FOUND until open_world opens a new one', async () => {
  const reset = createEmulator({ seed: 'mcp-reset' });
  const { origin: at } = await reset.listen({ port: 0 });
  const agent = await httpClient(at);
  await callTool(agent, 'open_world');
  await reset.reset();
  for (const [tool, args] of [
    ['send_sms', { to: '27831234567', message: 'Code 123456' }],
    ['messages_list', {}],
    ['move_clock', { advance: '1m' }],
  ] as const) {
    const answer = await callTool(agent, tool, args);
    expect(answer.error?.code, tool).toBe('CONTROL_NOT_FOUND');
    expect(answer.error.description, tool).toMatch(/world was deleted from outside the session.*open_world/);
  }
  const after = await callTool(agent, 'open_world');
  expect(reset.accounts.get(after.apiKey).clock).toBe(after.clock.id);
  expect((await callTool(agent, 'send_sms', { to: '27831234567', message: 'Code 123456' })).status).toBe(201);
  await endSession(agent);
  await reset.close();
});

test('initializes arriving together open no more sessions than mcpSessionLimit', async () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
  };
  const answers = await Promise.all(
    Array.from({ length: 8 }, () =>
      fetch(`${origin}/_emulator/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(initialize),
      }),
    ),
  );
  const opened = answers.flatMap((answer) => answer.headers.get('mcp-session-id') ?? []);
  expect(opened).toHaveLength(3);
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
  await Promise.all(
    opened.map((id) => fetch(`${origin}/_emulator/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': id } })),
  );
  await endSession(await httpClient(origin));
});
