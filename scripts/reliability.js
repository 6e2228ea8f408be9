// `npm run reliability`: attacks the built emulator as a hostile user would and prints one table per check:
// fuzzed requests, misbehaving webhook receivers, API latency beside a hanging receiver, heap over reset
// cycles, and money under concurrent sends. RELIABILITY_SIZE=tiny runs the same checks in seconds.
import { createServer, Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createEmulator, errorCatalogue, signRequest } from '../dist/index.js';
import { authorization, balanceRequest, sendRequest } from '../bench/requests.js';

const tiny = process.env.RELIABILITY_SIZE === 'tiny';
const size = tiny
  ? {
      fuzz: 1_000,
      modeMessages: 2,
      latencyRequests: 300,
      resetMessages: 300,
      cycles: 5,
      concurrent: 1_000,
      clocks: 5_000,
      worlds: 2_000,
      worldsBaseline: 200,
    }
  : {
      fuzz: 10_000,
      modeMessages: 5,
      latencyRequests: 3_000,
      resetMessages: 5_000,
      cycles: 5,
      concurrent: 1_000,
      clocks: 50_000,
      worlds: 20_000,
      worldsBaseline: 1_000,
    };
const timeoutMs = 200;
const log = (line = '') => process.stdout.write(`${line}\n`);
const table = (head, rows) => {
  log(`| ${head.join(' | ')} |`);
  log(`|${head.map(() => '---').join('|')}|`);
  for (const row of rows) log(`| ${row.join(' | ')} |`);
  log();
};

// A small seeded generator, so every run fuzzes the same requests.
let seed = 0x5eed;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
const pick = (items) => items[Math.floor(random() * items.length)];

log(`sms-emulator reliability (${tiny ? 'tiny' : 'full'} size), node ${process.version}`);
log();
await fuzz();
await receiverModes();
await latency();
await heapOverResets();
await money();
await clockScale();
await heapOverWorlds();

/** Random methods, paths, headers and bodies, in process; counts answers by status and checks every error is catalogued. */
async function fuzz() {
  const emulator = createEmulator({ clock: 'manual', seed: 'fuzz', startTime: '2026-11-21T10:00:00Z' });
  const paths = [
    '/v1/messages',
    '/v1/messages/balance',
    '/v1/messages/00000000-0000-4000-8000-000000000000',
    '/sandbox/v1/messages',
    '/v1/messages?page=-1&limit=1e9',
    '/_emulator/clock',
    '/_emulator/accounts',
    '/_emulator/accounts/pk_test_sms_emulator',
    '/_emulator/scenario',
    '/_emulator/snapshot',
    '/_emulator/sign',
    '/_emulator/reset',
    '/_emulator/webhooks/chaos',
    '/%E0%A4%A',
    '/v1/../_emulator/clock',
  ];
  const deep = (n) => '['.repeat(n) + ']'.repeat(n);
  const bodies = [
    () => JSON.stringify({ recipient: ['27831234567'], message: 'Hi' }),
    () =>
      JSON.stringify({
        recipient: pick([[], ['x'], null, 5, ['27831234567'.repeat(50)]]),
        message: 'x'.repeat(Math.floor(random() * 2_000)),
      }),
    () => JSON.stringify({ advance: pick([1e300, '99999999999999999999d', -1, '7d', 'soon']) }),
    () => JSON.stringify({ speed: pick([1e308, 0, -5, 1e6, 'fast']) }),
    () =>
      JSON.stringify({
        set: pick(['+010000-01-01T00:00:00Z', '1969-01-01T00:00:00Z', '2027-01-01T00:00:00Z', 'tomorrow']),
      }),
    () => JSON.stringify({ runUntilIdle: true, limit: pick(['1h', '30d', 1e300]) }),
    () => '{"message":"\\ud800","recipient":["27831234567"]}',
    () => deep(pick([10, 600, 20_000])),
    () => '{"__proto__":{"admin":true},"constructor":{"prototype":{}}}',
    () => '{"a":1,"a":2}',
    () => Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    () => 'version: 1\ntimeline:\n  - at: 1m\n    setBalance: { account: pk_nobody, balance: 5 }\n',
    () => 'a: &a [*a]',
    () => '',
    () => 'x'.repeat(2_000_000),
  ];
  const counts = new Map();
  const uncatalogued = new Set();
  let serverErrors = 0;
  const started = performance.now();
  for (let i = 0; i < size.fuzz; i++) {
    const method = pick(['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS']);
    const headers = {
      authorization: pick([authorization, 'Basic !!!', 'Bearer x', '']),
      'content-type': pick(['application/json', 'application/yaml', 'text/plain', '']),
    };
    const body = method === 'GET' || method === 'HEAD' ? undefined : pick(bodies)();
    const response = await emulator.fetch(new Request(`http://fuzz.test${pick(paths)}`, { method, headers, body }));
    const text = await response.text();
    const key = `${Math.floor(response.status / 100)}xx`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (response.status >= 500) serverErrors += 1;
    if (response.status >= 400 && text) {
      const parsed = JSON.parse(text);
      const code = parsed.message ?? parsed.error?.message;
      if (!(code in errorCatalogue) || errorCatalogue[code].status !== response.status)
        uncatalogued.add(`${response.status} ${code}`);
    }
  }
  await emulator.close();
  log('## Fuzzed requests');
  log();
  table(
    ['requests', ...[...counts.keys()].sort(), '5xx', 'uncatalogued errors', 'seconds'],
    [
      [
        size.fuzz,
        ...[...counts.keys()].sort().map((key) => counts.get(key)),
        serverErrors,
        uncatalogued.size === 0 ? 'none' : [...uncatalogued].join(', '),
        seconds(started),
      ],
    ],
  );
}

/** Every way a receiver can misbehave, with the tries each event got and how it ended. */
async function receiverModes() {
  const modes = {
    'down (connection refused)': null,
    'answers 500': (response) => response.writeHead(500).end('no'),
    'redirects (302)': (response) => response.writeHead(302, { location: 'http://127.0.0.1:9/' }).end(),
    hang: () => undefined,
    'slow (answers after 2 × timeout)': (response) =>
      setTimeout(() => response.writeHead(200).end('late'), 2 * timeoutMs),
    'closes mid-response': (response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('partial', () => response.socket?.destroy());
    },
    'healthy (200)': (response) => response.writeHead(200).end('ok'),
  };
  const rows = [];
  for (const [name, answer] of Object.entries(modes)) {
    const receiver = await startReceiver(answer ?? (() => undefined));
    if (answer === null) await receiver.close(); // nothing listens there any more
    const emulator = createEmulator({
      clock: 'manual',
      seed: 'modes',
      webhookUrl: receiver.url,
      webhookTimeout: `${timeoutMs}ms`,
    });
    const started = performance.now();
    for (let i = 0; i < size.modeMessages; i++) await send(emulator, i);
    await emulator.clock.runUntilIdle();
    const events = emulator.webhooks.list({ limit: 1000 }).items;
    const tries = events.map((event) => event.attempts.length);
    const states = tally(events.map((event) => event.state));
    const errors = tally(
      events.flatMap((event) =>
        event.attempts.map((attempt) => attempt.error?.split(':')[0] ?? String(attempt.status)),
      ),
    );
    rows.push([name, events.length, `${Math.min(...tries)}–${Math.max(...tries)}`, states, errors, seconds(started)]);
    await emulator.close();
    if (answer !== null) await receiver.close();
  }
  log(
    `## Webhook receivers (webhookTimeout ${timeoutMs} ms, 3 re-attempts, ${size.modeMessages} messages each, run until idle)`,
  );
  log();
  table(['receiver', 'events', 'tries per event', 'final states', 'try results', 'seconds'], rows);
}

/** p99 of API requests over HTTP while webhooks go to a healthy receiver, and while they go to one that hangs. */
async function latency() {
  const rows = [];
  const p99 = {};
  for (const [name, answer] of [
    ['no webhook URL', null],
    ['hanging receiver', () => undefined],
  ]) {
    const receiver = answer ? await startReceiver(answer) : undefined;
    const emulator = createEmulator({
      clock: 'realtime',
      speed: 1_000,
      balance: 1e9,
      seed: 'latency',
      webhookUrl: receiver?.url,
      webhookTimeout: '5s',
    });
    const { origin } = await emulator.listen({ host: '127.0.0.1', port: 0 });
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const times = [];
    let next = 0;
    const worker = async () => {
      while (next < size.latencyRequests) {
        const i = next++;
        const call = i % 2 === 0 ? sendRequest(i) : balanceRequest;
        const started = performance.now();
        await http(origin, call, agent);
        times.push(performance.now() - started);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    times.sort((a, b) => a - b);
    p99[name] = times[Math.floor(times.length * 0.99)];
    const tried = emulator.webhooks.list().total;
    rows.push([name, size.latencyRequests, ms(times[Math.floor(times.length / 2)]), ms(p99[name]), tried]);
    agent.destroy();
    await emulator.close();
    await receiver?.close();
  }
  log('## API latency over HTTP (8 concurrent keep-alive clients, sends and balance reads, realtime clock × 1000)');
  log();
  table(['webhooks go to', 'requests', 'p50 ms', 'p99 ms', 'webhook events'], rows);
  log(`p99 ratio, hanging receiver / none: ${(p99['hanging receiver'] / p99['no webhook URL']).toFixed(2)}`);
  log();
}

/** Heap after each reset cycle of sends with webhooks on, against the heap after the first cycle. */
async function heapOverResets() {
  if (typeof globalThis.gc !== 'function') {
    log('## Heap over reset cycles: skipped (run with node --expose-gc, as npm run reliability does)');
    log();
    return;
  }
  const receiver = await startReceiver((response) => response.writeHead(200).end('ok'));
  const emulator = createEmulator({ clock: 'manual', balance: 1e9, seed: 'heap', webhookUrl: receiver.url });
  const heap = () => {
    globalThis.gc();
    globalThis.gc();
    return process.memoryUsage().heapUsed / 2 ** 20;
  };
  const cycle = async () => {
    for (let i = 0; i < size.resetMessages; i++) await send(emulator, i);
    await emulator.clock.runUntilIdle();
    emulator.reset();
  };
  await cycle(); // warm-up: code, caches and connections
  const baseline = heap();
  const rows = [['baseline (after a warm-up cycle)', baseline.toFixed(1), '']];
  for (let i = 1; i <= size.cycles; i++) {
    await cycle();
    const now = heap();
    rows.push([`after cycle ${i}`, now.toFixed(1), `${now - baseline >= 0 ? '+' : ''}${(now - baseline).toFixed(1)}`]);
  }
  await emulator.close();
  await receiver.close();
  log(
    `## Heap over reset cycles (${size.resetMessages} sends with webhooks to a healthy receiver per cycle, then reset)`,
  );
  log();
  table(['moment', 'heap used MB', 'vs baseline MB'], rows);
}

/** 1,000 sends at once over HTTP against a 500-credit balance: never below zero, and the sum exact. */
async function money() {
  const emulator = createEmulator({ clock: 'manual', balance: 500, seed: 'money' });
  const { origin } = await emulator.listen({ host: '127.0.0.1', port: 0 });
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  let lowest = Infinity;
  const off = emulator.on(
    'message.created',
    () => (lowest = Math.min(lowest, emulator.accounts.get('pk_test_sms_emulator').live.balance)),
  );
  const answers = await Promise.all(
    Array.from({ length: size.concurrent }, (_, i) => http(origin, sendRequest(i), agent)),
  );
  off();
  const statuses = tally(answers.map((answer) => answer.status));
  const accepted = answers.filter((answer) => answer.status === 201).length;
  const balance = emulator.accounts.get('pk_test_sms_emulator').live.balance;
  agent.destroy();
  await emulator.close();
  log(`## Money under concurrency (${size.concurrent} concurrent sends of 1 credit each, balance 500)`);
  log();
  table(
    ['answers', 'accepted', 'final balance', 'lowest balance seen', 'exact (500 − accepted = balance)'],
    [[statuses, accepted, balance, lowest, 500 - accepted === balance && balance >= 0 ? 'yes' : 'NO']],
  );
}

/** Creating and deleting many test clocks, each with an account: each costs what it holds, not what the emulator holds. */
async function clockScale() {
  const emulator = createEmulator({ clock: 'manual', seed: 'clocks' });
  const ids = [];
  let started = performance.now();
  for (let i = 0; i < size.clocks; i++) {
    const { id } = emulator.clocks.create();
    emulator.accounts.create({ apiKey: `pk_clock_${i}`, clock: id });
    ids.push(id);
  }
  const created = seconds(started);
  started = performance.now();
  for (const id of ids) emulator.clocks.delete(id);
  const deleted = seconds(started);
  await emulator.close();
  log(`## Test clocks at scale (${size.clocks} clocks, an account on each)`);
  log();
  table(['clocks', 'create all, seconds', 'delete all, seconds'], [[size.clocks, created, deleted]]);
}

/**
 * The heap over many fixture-like worlds, each made and deleted as the vitest fixture does: a test clock, an account on
 * it with a webhook URL, a send, delivered (its webhooks posted over HTTP), then the clock deleted. Deleting a world
 * frees its journal and webhook log entries, so the heap stays where it was after the first worlds.
 */
async function heapOverWorlds() {
  if (typeof globalThis.gc !== 'function') return;
  const receiver = await startReceiver((response) => response.writeHead(200).end('ok'));
  const emulator = createEmulator({ clock: 'manual', seed: 'worlds' });
  const heap = () => {
    globalThis.gc();
    globalThis.gc();
    return process.memoryUsage().heapUsed / 2 ** 20;
  };
  const world = async (i) => {
    const { id } = emulator.clocks.create({ name: `test ${i}` });
    const apiKey = `pk_world_${i}`;
    emulator.accounts.create({ apiKey, signingSecret: 'sk_test_sms_emulator', clock: id, webhookUrl: receiver.url });
    const fields = { recipient: ['27831234567'], message: `World ${i}` };
    const response = await emulator.fetch(
      new Request('http://emulator.test/v1/messages', {
        method: 'POST',
        headers: {
          authorization: basic(apiKey),
          'content-type': 'application/json',
          signature: signRequest(fields, 'sk_test_sms_emulator'),
        },
        body: JSON.stringify(fields),
      }),
    );
    if (response.status !== 201) throw new Error(`send answered ${response.status}: ${await response.text()}`);
    await emulator.waitFor((await response.json()).id).toReach('delivered');
    await emulator.clocks.delete(id);
  };
  const started = performance.now();
  for (let i = 0; i < size.worldsBaseline; i++) await world(i);
  const baseline = heap();
  for (let i = size.worldsBaseline; i < size.worlds; i++) await world(i);
  const after = heap();
  await emulator.close();
  await receiver.close();
  const growth = after - baseline;
  log(
    `## Heap over fixture-like worlds (${size.worlds} worlds: clock, account, send, delivered with 2 webhooks over HTTP, delete)`,
  );
  log();
  table(
    ['after worlds', 'heap used MB', 'vs first worlds MB', 'within 5 MB', 'seconds'],
    [
      [size.worldsBaseline, baseline.toFixed(1), '', '', ''],
      [
        size.worlds,
        after.toFixed(1),
        `${growth >= 0 ? '+' : ''}${growth.toFixed(1)}`,
        Math.abs(growth) <= 5 ? 'yes' : 'NO',
        seconds(started),
      ],
    ],
  );
}

function basic(apiKey) {
  return `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
}

async function send(emulator, i) {
  const call = sendRequest(i);
  const response = await emulator.fetch(new Request(`http://emulator.test${call.path}`, call));
  if (response.status !== 201) throw new Error(`send answered ${response.status}: ${await response.text()}`);
}

function http(origin, call, agent) {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${origin}${call.path}`,
      { method: call.method, headers: call.headers, agent },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(call.body);
  });
}

async function startReceiver(answer) {
  const server = createServer((incoming, response) => {
    incoming.resume();
    incoming.on('end', () => answer(response));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

function tally(values) {
  const counts = new Map();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, count]) => `${value} × ${count}`).join(', ');
}

function seconds(started) {
  return ((performance.now() - started) / 1000).toFixed(1);
}

function ms(value) {
  return value.toFixed(1);
}
