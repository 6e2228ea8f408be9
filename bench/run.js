// Load and scale benchmarks. Every figure is a ratio against a baseline measured in the same run,
// so results compare across machines. Run with `npm run bench` after `npm run build`.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createEmulator } from '../dist/index.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const auth = `Basic ${Buffer.from('pk_test_sms_emulator:').toString('base64')}`;

function startTarget(kind) {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./target.js', import.meta.url)), kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => child.stdout.once('data', (chunk) => resolve({ child, port: Number(String(chunk).trim()) })));
}

/** Requests per second with `concurrency` keep-alive loops for `seconds`. */
async function load(port, method, path, body, headers = {}, duration = seconds) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const deadline = performance.now() + duration * 1000;
  let done = 0;
  let failed = 0;
  const once = () =>
    new Promise((resolve) => {
      const req = request({ host: '127.0.0.1', port, method, path, agent, headers: { authorization: auth, ...headers } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode >= 400) failed += 1;
          resolve();
        });
      });
      req.on('error', () => {
        failed += 1;
        resolve();
      });
      req.end(body);
    });
  const loop = async () => {
    while (performance.now() < deadline) {
      await once();
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  agent.destroy();
  return { rps: done / duration, failed };
}

const fields = { recipient: ['27831234567'], message: 'Benchmark message' };
const sendBody = JSON.stringify(fields);
const signature = createHmac('sha256', 'sk_test_sms_emulator').update('message=Benchmark%20message&recipient[]=27831234567').digest('hex');

/** Milliseconds from spawn until the process prints `marker`, median of `runs`. */
async function startupMs(args, marker, runs = 5) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => {
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
        if (output.includes(marker)) resolve();
      });
    });
    times.push(performance.now() - started);
    child.kill();
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

const bin = fileURLToPath(new URL('../bin/sms-emulator.js', import.meta.url));
const bareStart = await startupMs(['-e', "require('http').createServer().listen(0, () => console.log('ready'))"], 'ready');
const emulatorStart = await startupMs([bin, '--port', '0'], 'try:');
console.log(`start-up: ${emulatorStart.toFixed(0)} ms = ${(emulatorStart / bareStart).toFixed(2)} × a bare node server (${bareStart.toFixed(0)} ms)`);

const bare = await startTarget('bare');
const emulator = await startTarget('emulator');
try {
  // Warm both up first so neither is measured cold.
  await load(bare.port, 'GET', '/v1/messages/balance', undefined, {}, 0.5);
  await load(emulator.port, 'GET', '/v1/messages/balance', undefined, {}, 0.5);
  const baseline = await load(bare.port, 'GET', '/v1/messages/balance');
  const balance = await load(emulator.port, 'GET', '/v1/messages/balance');
  const sends = await load(emulator.port, 'POST', '/v1/messages', sendBody, { 'content-type': 'application/json', signature });
  console.log(`bare node server:        ${baseline.rps.toFixed(0)} req/s (baseline)`);
  console.log(`GET balance:             ${balance.rps.toFixed(0)} req/s = ${(balance.rps / baseline.rps).toFixed(2)} × baseline (${balance.failed} failed)`);
  console.log(`POST send:               ${sends.rps.toFixed(0)} req/s = ${(sends.rps / baseline.rps).toFixed(2)} × baseline (${sends.failed} failed)`);
} finally {
  bare.child.kill();
  emulator.child.kill();
}

// Scale: a 7-day jump over 100,000 scheduled deliveries, and reset of an empty emulator,
// against the cost of the same number of empty loop iterations with a Map insert (baseline).
const baselineStart = performance.now();
const map = new Map();
for (let i = 0; i < 100_000; i++) map.set(i, { i });
const baselineMs = performance.now() - baselineStart;

const big = createEmulator({ clock: 'manual', seed: 'scale', balance: 10_000_000 });
const origin = 'http://bench.local';
const scaleFields = { recipient: ['27831234567'], message: 'scale' };
const scaleSignature = createHmac('sha256', 'sk_test_sms_emulator').update('message=scale&recipient[]=27831234567').digest('hex');
const sendStart = performance.now();
for (let i = 0; i < 33_334; i++) {
  await big.fetch(
    new Request(`${origin}/v1/messages`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json', signature: scaleSignature },
      body: JSON.stringify(scaleFields),
    }),
  );
}
const sendMs = performance.now() - sendStart;
const jumpStart = performance.now();
await big.clock.advance('7d');
const jumpMs = performance.now() - jumpStart;
let events = 0;
for (let page = 1, total = 1; (page - 1) * 1000 < total; page++) {
  const listed = big.messages.list({ page, limit: 1000 });
  total = listed.total;
  for (const message of listed.items) events += message.history.length;
}
console.log(`33,334 in-process sends: ${sendMs.toFixed(0)} ms`);
console.log(
  `7-day jump firing ${(events - 33_334).toLocaleString()} transitions: ${jumpMs.toFixed(0)} ms = ${(jumpMs / baselineMs).toFixed(1)} × 100k Map inserts (${baselineMs.toFixed(1)} ms)`,
);

const empty = createEmulator({ clock: 'manual' });
const rounds = 10_000;
const resetStart = performance.now();
for (let i = 0; i < rounds; i++) empty.reset();
const resetMs = (performance.now() - resetStart) / rounds;
console.log(`reset of an empty emulator: ${(resetMs * 1000).toFixed(1)} µs`);
