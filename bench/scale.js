// Child process (run with --expose-gc): an emulator on a manual clock filled with messages, then measured
// in place: memory per message, the 7-day jump, list reads, reset. Sends its figures to the parent over IPC.
import { execFileSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createEmulator } from '../dist/index.js';
import { authorization, sendRequest } from './requests.js';

/** @type {{ messages: number, notifyOn?: string[], webhookUrl?: string, lists?: number, reset?: boolean, memoryBaseline?: boolean }} */
const config = JSON.parse(process.argv[2]);
const emulator = createEmulator({
  clock: 'manual',
  seed: 'bench',
  balance: 1_000_000_000_000,
  ...(config.notifyOn && { notifyOn: config.notifyOn }),
  ...(config.webhookUrl && { webhookUrl: config.webhookUrl }),
});
const urls = await emulator.listen({ port: 0 });

function memory() {
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heap: heapUsed, rss };
}
// Per message: after the fill (and the jump) minus this same process just before the fill, both after a full gc, so the
// RSS figure holds everything the messages cost, the heap room V8 grew into and keeps included.
const perMessage = (after, before) => ({
  heap: (after.heap - before.heap) / config.messages,
  rss: (after.rss - before.rss) / config.messages,
});
const empty = memory();
const filled = await fill(config.messages);
process.send(await measure());
await emulator.close();
process.disconnect();

/** Sends `count` distinct signed single-recipient messages through the API, in process (no sockets to wait on). */
async function fill(count) {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const { method, path, headers, body } = sendRequest(i);
    const response = await emulator.fetch(new Request(urls.origin + path, { method, headers, body }));
    if (response.status !== 201)
      throw new Error(`bench: send ${i} answered ${response.status}: ${await response.text()}`);
  }
  return { ms: performance.now() - started };
}

async function measure() {
  const result = { fillMs: filled.ms, pending: perMessage(memory(), empty) };
  let started = performance.now();
  let view = await emulator.clock.advance('7d');
  // One move fires at most a million tasks (the clock's cap): a million messages take a few more moves.
  for (let moves = 1; view.pendingTasks > 0 && moves < 10; moves++) view = await emulator.clock.advance(0);
  result.jumpMs = performance.now() - started;
  result.stored = perMessage(memory(), empty);
  if (config.lists) result.lists = await listReads(config.lists);
  if (config.reset) {
    started = performance.now();
    emulator.reset();
    result.resetMs = performance.now() - started;
    started = performance.now();
    emulator.reset();
    result.emptyResetMs = performance.now() - started;
  }
  if (config.memoryBaseline) result.baseline = plainObjects();
  return result;
}

/** Latency of each list query (sequential, in process, so nothing but the handler is timed) and the longest event-loop block. */
async function listReads(repeats) {
  const n = config.messages;
  const queries = {
    balance: '/v1/messages/balance',
    newest: '/v1/messages',
    lastPage: `/v1/messages?page=${Math.ceil(n / 10)}`,
    limit100: '/v1/messages?limit=100',
    search: `/v1/messages?search=${encodeURIComponent(`message ${n - 7}`)}`,
    searchNone: '/v1/messages?search=nowhere',
    recipient: `/v1/messages?recipient=${27_830_000_000 + ((n - 3) % 100_000)}`,
    status: '/v1/messages?status=delivered',
    control: '/_emulator/messages',
    controlPage2: '/_emulator/messages?page=2&limit=100',
  };
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const latencies = {};
  for (const [name, path] of Object.entries(queries)) {
    const times = [];
    const deadline = performance.now() + 10_000; // a slow query gets fewer rounds, not a stalled run
    for (let i = 0; i < repeats && performance.now() < deadline; i++) {
      const started = performance.now();
      const response = await emulator.fetch(new Request(urls.origin + path, { headers: { authorization } }));
      await response.arrayBuffer();
      times.push(performance.now() - started);
      if (response.status >= 500) throw new Error(`bench: ${path} answered ${response.status}`);
      // In process, a request never leaves the microtask queue; yield so the delay monitor sees each request's block.
      await yieldToLoop();
    }
    times.sort((a, b) => a - b);
    latencies[name] = {
      p50: times[Math.floor(times.length * 0.5)],
      p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))],
      runs: times.length,
    };
  }
  delay.disable();
  return { latencies, maxBlockMs: delay.max / 1e6 };
}

/**
 * Baseline: the same number of plain objects shaped like the API's message JSON, in a Map by id, measured in a fresh
 * process: measured here, after the emulator's fill and jump, they would land in the heap room those left behind and
 * their RSS per object came out negative.
 */
function plainObjects() {
  const output = execFileSync(process.execPath, [
    '--expose-gc',
    fileURLToPath(new URL('./plainObjects.js', import.meta.url)),
    String(config.messages),
  ]);
  return JSON.parse(output.toString());
}
