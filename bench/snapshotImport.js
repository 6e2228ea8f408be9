// `npm run bench:snapshot` (or `node bench/snapshotImport.js` after `npm run build`): a snapshot import of the
// largest size the emulator takes by default (maxSnapshotSize), PUT to a spawned emulator while a client asks for
// health every 10 ms. Prints the longest health answer, the emulator's longest event-loop block (bench/loopProbe.js,
// preloaded into it), the import's time and its peak RSS over the body's size, with the machine's load average.
// SNAPSHOT_BYTES picks another size; SNAPSHOT_NODE_FLAGS adds flags to the emulator's node (`--trace-gc`,
// `--cpu-prof`); SNAPSHOT_TRACE prints each slow health answer and each long block of the emulator's loop.
//
// The snapshot is a real export grown to size: sends through the API of an in-process emulator (single- and
// multi-recipient, most delivered, some still in flight with their timers), three accounts, exported, and its messages
// copied under fresh ids until the body is as large as maxSnapshotSize allows.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { createEmulator, signRequest } from '../dist/index.js';
import { originOf, pinLoadGenerator, pinned, spawnServerSide, stop } from './processes.js';

const script = (name) => fileURLToPath(new URL(name, import.meta.url));
const defaultMaxSnapshotSize = await defaultOption('maxSnapshotSize');
const bodyBytes = Number(process.env.SNAPSHOT_BYTES ?? defaultMaxSnapshotSize);
const probeEveryMs = 10;
let started = 0;
const log = (line) => process.stdout.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

// Unpinned by default: V8 marks the heap on helper threads, which a process pinned to one CPU starves (a full
// collection then marks in one pause: 123 ms measured), and a CI runner has two cores or more. SNAPSHOT_PIN=1 pins the
// emulator to one CPU and this process to the other, as `npm run bench` does.
const pin = process.env.SNAPSHOT_PIN === '1' && pinned;
if (pin) pinLoadGenerator();
log(`bench: snapshot import of ${bodyBytes.toLocaleString('en')} bytes (load average ${load()}, pinned: ${pin})`);
const body = await exportGrownTo(bodyBytes);
const size = body.reduce((sum, chunk) => sum + chunk.byteLength, 0);

const probeOut = join(tmpdir(), `sms-emulator-loop-probe-${process.pid}.json`);
const spawnEmulator = pin
  ? spawnServerSide
  : (args, options) => spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], ...options });
const child = spawnEmulator(
  [
    ...(process.env.SNAPSHOT_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
    `--import=${script('./loopProbe.js')}`,
    script('../bin/sms-emulator.js'),
    '--port',
    '0',
    '--max-snapshot-size',
    String(Math.max(bodyBytes, defaultMaxSnapshotSize)),
  ],
  { env: { ...process.env, LOOP_PROBE_OUT: probeOut } },
);
const origin = await originOf(child);
// With SNAPSHOT_NODE_FLAGS=--trace-gc, the emulator's output is where the collections are listed.
if (process.env.SNAPSHOT_TRACE) child.stdout.on('data', (text) => process.stderr.write(text));
try {
  await get(origin, '/_emulator/health');
  const rssBefore = status(child.pid, 'VmRSS');
  await loopFigures(child); // starts the probe's count afresh
  // The health client runs on a thread of its own, so the upload's work and collections on this one never delay it.
  const prober = new Worker(script('./healthProber.js'), { workerData: { origin, everyMs: probeEveryMs } });
  await once(prober, 'online');
  started = performance.now();
  const answer = await put(origin, '/_emulator/snapshot', body, size);
  const importMs = performance.now() - started;
  prober.postMessage('stop');
  const [{ answers: health, failures, longestTickMs: clientTickMs }] = await once(prober, 'message');
  await prober.terminate();
  const loop = await loopFigures(child);
  const peak = status(child.pid, 'VmHWM');
  if (answer.status !== 200) throw new Error(`bench: the import answered ${answer.status}: ${answer.text}`);
  const longestHealth = Math.max(...health.map(([, took]) => took));
  const sorted = health.map(([, took]) => took).sort((a, b) => a - b);
  if (process.env.SNAPSHOT_TRACE)
    for (const [at, took] of health)
      if (took > 100)
        log(`  slow health: asked ${at.toFixed(0)} ms into the import, answered in ${took.toFixed(0)} ms`);
  log(`  messages imported       ${answer.messages.toLocaleString('en')}`);
  log(`  import                  ${(importMs / 1000).toFixed(1)} s (upload included)`);
  log(
    `  health answers          ${health.length} (asked every ${probeEveryMs} ms), longest ${longestHealth.toFixed(0)} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)].toFixed(0)} ms`,
  );
  log(`  health client's timer  late by at most ${(clientTickMs - probeEveryMs).toFixed(0)} ms (its own thread held)`);
  if (failures.length > 0) log(`  health failures         ${failures.length}: ${JSON.stringify(failures.slice(0, 5))}`);
  log(
    `  health in the emulator  longest ${loop.longestHealthMs.toFixed(0)} ms from accept to answer; waited at most ${loop.longestAcceptWaitMs.toFixed(0)} ms to be accepted`,
  );
  log(
    `  longest loop block      ${loop.longestTickMs.toFixed(0)} ms (10 ms ticks; monitorEventLoopDelay max ${loop.delayMaxMs.toFixed(0)} ms, p99 ${loop.delayP99Ms.toFixed(0)} ms)`,
  );
  // A block the process spent mostly waiting for a CPU is the machine's load, not the import's work.
  const [, blockMs, blockCpuMs] = loop.slow.reduce(
    (longest, block) => (block[1] > longest[1] ? block : longest),
    [0, 0, 0],
  );
  log(
    `  CPU in blocks > 50 ms   ${loop.slow.length === 0 ? 'none over 50 ms' : `the longest (${blockMs} ms) used ${blockCpuMs} ms of CPU; the most any used: ${Math.max(...loop.slow.map((block) => block[2]))} ms`}`,
  );
  const longestCollection = loop.collections.reduce(
    (longest, entry) => (entry[1] > longest[1] ? entry : longest),
    [0, 0],
  );
  log(
    `  collections > 20 ms     ${loop.collections.length === 0 ? 'none' : `${loop.collections.length}, the longest ${longestCollection[1]} ms (${longestCollection[2]})`}`,
  );
  log(
    `  peak RSS                ${mb(peak)} (${(peak / size).toFixed(2)}× the body; ${mb(peak - rssBefore)} over the ${mb(rssBefore)} before it, ${((peak - rssBefore) / size).toFixed(2)}×)`,
  );
  log(`  load average after      ${load()}`);
  if (process.env.SNAPSHOT_TRACE)
    log(`  loop blocks over 50 ms [since start, wall ms, CPU ms]: ${JSON.stringify(loop.slow)}`);
  if (process.env.SNAPSHOT_TRACE)
    log(`  collections over 20 ms [since start, ms, kind, flags]: ${JSON.stringify(loop.collections)}`);
} finally {
  await stop(child);
  rmSync(probeOut, { force: true });
}

function mb(bytes) {
  return `${(bytes / 1_048_576).toFixed(0)} MB`;
}

/** A field of /proc/<pid>/status in bytes (VmRSS now, VmHWM the peak). */
function status(pid, field) {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match[1]) * 1024;
}

/** The probe's figures since it was last asked (SIGUSR2 makes it write them). */
async function loopFigures(process) {
  rmSync(probeOut, { force: true });
  process.kill('SIGUSR2');
  for (;;) {
    try {
      const text = readFileSync(probeOut, 'utf8');
      if (text.endsWith('\n')) return JSON.parse(text);
    } catch {
      // not written yet
    }
    await sleep(20);
  }
}

function get(origin, path) {
  return new Promise((resolve, reject) => {
    const sent = request(`${origin}${path}`, { agent: false }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** PUTs the chunks as a client streams a file: a write at a time, waiting when the socket is full. */
function put(origin, path, chunks, length) {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${origin}${path}`,
      {
        method: 'PUT',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': length },
        // An import that has not answered in two minutes is a failure to report, not a run to wait for.
        timeout: 120_000,
      },
      (answer) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (part) => (text += part));
        answer.on('end', async () => {
          const messages = answer.statusCode === 200 ? await countMessages(origin) : 0;
          resolve({ status: answer.statusCode, text, messages });
        });
      },
    );
    sent.on('error', reject);
    sent.on('timeout', () => sent.destroy(new Error('bench: the import did not answer within 120 s')));
    void (async () => {
      for (const chunk of chunks) {
        if (!sent.write(chunk)) await new Promise((drained) => sent.once('drain', drained));
      }
      sent.end();
      if (process.env.SNAPSHOT_TRACE) log(`  body sent after ${(performance.now() - started).toFixed(0)} ms`);
    })();
  });
}

async function countMessages(origin) {
  const answer = await fetch(`${origin}/_emulator/messages?limit=1`);
  return (await answer.json()).total ?? NaN;
}

/** An option's default, read from the emulator itself so the bench measures whatever the default is now. */
async function defaultOption(name) {
  const emulator = createEmulator();
  try {
    return emulator.options[name];
  } finally {
    await emulator.close();
  }
}

/** A real export, its messages copied under fresh ids until the JSON is at most `bytes` long, as chunks of about 1 MB. */
async function exportGrownTo(bytes) {
  const emulator = createEmulator({ clock: 'manual', seed: 'bench', balance: 1_000_000_000 });
  const accounts = [{ apiKey: 'pk_test_sms_emulator', signingSecret: 'sk_test_sms_emulator' }];
  for (const name of ['b', 'c']) {
    const account = { apiKey: `pk_test_bench_${name}`, signingSecret: `sk_test_bench_${name}` };
    await emulator.accounts.create({ ...account, balance: 1_000_000, webhookUrl: null });
    accounts.push(account);
  }
  let sent = 0;
  async function send(recipients) {
    const account = accounts[sent % accounts.length];
    const fields = { recipient: recipients, message: `Your code is ${100_000 + sent}. It expires in 10 minutes.` };
    const response = await emulator.fetch(
      new Request('http://127.0.0.1/v1/messages', {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${account.apiKey}:`).toString('base64')}`,
          'content-type': 'application/json',
          signature: signRequest(fields, account.signingSecret),
        },
        body: JSON.stringify(fields),
      }),
    );
    if (response.status !== 201) throw new Error(`bench: a send answered ${response.status}: ${await response.text()}`);
    sent += 1;
  }
  for (let i = 0; i < 270; i++) await send([String(27_830_000_000 + i)]);
  for (let i = 0; i < 30; i++) await send([String(27_831_000_000 + i), String(27_832_000_000 + i)]);
  await emulator.clock.advance('1m');
  // A few still in flight: their plans become timers again on import.
  for (let i = 0; i < 20; i++) await send([String(27_833_000_000 + i)]);
  const snapshot = emulator.snapshot();
  await emulator.close();
  const { messages } = snapshot;
  const head = JSON.stringify({ ...snapshot, messages: [], replies: [] }).replace(
    /"messages":\[\],"replies":\[\]\}$/,
    '"messages":[',
  );
  const tail = '],"replies":[]}';
  const chunks = [Buffer.from(head)];
  let total = head.length + tail.length;
  let pending = [];
  let pendingBytes = 0;
  for (let copy = 0; ; copy++) {
    const message = messages[copy % messages.length];
    const text = `${copy === 0 ? '' : ','}${JSON.stringify({ ...message, id: `${message.id}-${copy}` })}`;
    if (total + text.length > bytes) break;
    total += text.length;
    pending.push(text);
    pendingBytes += text.length;
    if (pendingBytes >= 1_048_576) {
      chunks.push(Buffer.from(pending.join('')));
      pending = [];
      pendingBytes = 0;
    }
  }
  chunks.push(Buffer.from(`${pending.join('')}${tail}`));
  return chunks;
}
