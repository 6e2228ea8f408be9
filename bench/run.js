// `npm run bench`: every figure of the speed targets beside its baseline measured in the same run, written to bench/RESULTS.md.
// BENCH_SIZE=tiny runs the same steps at a size that takes seconds (CI keeps the harness working with it); BENCH_OUT picks the
// file, BENCH_JSON also writes the raw figures there. BENCH_ONLY=load,cold,scale,quiet,million,webhooks,fixture,kits,parity (any of
// them) runs just those parts and prints their raw figures instead of writing RESULTS.md: for profiling one figure, never for the
// committed results. The exceptions are `fixture`, `kits` and `parity`, whose sections of RESULTS.md carry their own "Written by"
// lines: BENCH_ONLY=fixture (or kits, or parity) rewrites that section in place (and nothing else). The kits part needs
// `npm run kits` first.
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { connections, measure } from './load.js';
import {
  cpuTimeOf,
  pinLoadGenerator,
  pinned,
  originOf,
  rssOf,
  serverCpu,
  spawnServerSide,
  startServer,
  stop,
} from './processes.js';
import { authorization, balanceRequest, sendRequest } from './requests.js';
import { fixtureCost } from './fixtureCost.js';
import { prepareRelease } from './release.js';
import { kitCost } from './kitCost.js';
import { withKitSection } from './kitSection.js';
import { machine, renderResults, withFixtureSection, withParitySection } from './report.js';
import { parityBench } from './parityBench.js';

const tiny = process.env.BENCH_SIZE === 'tiny';
const size = tiny
  ? {
      rounds: 1,
      seconds: 1,
      warmup: 0.5,
      settleMs: 0,
      coldRuns: 2,
      messages: 1_000,
      million: 5_000,
      webhookMessages: 200,
      listRepeats: 20,
      fixtureTests: 20,
      kitWorlds: 5,
      parityRounds: 1,
      parityRequests: 20,
      parityEvents: 600,
    }
  : {
      rounds: 7,
      seconds: 3,
      warmup: 2,
      settleMs: 6_000,
      coldRuns: 7,
      messages: 100_000,
      million: 1_000_000,
      webhookMessages: 10_000,
      listRepeats: 200,
      fixtureTests: 300,
      kitWorlds: 300,
      parityRounds: 5,
      parityRequests: 200,
      parityEvents: 10_000,
    };
const out = process.env.BENCH_OUT ?? fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const script = (name) => fileURLToPath(new URL(name, import.meta.url));
const cli = [script('../bin/sms-emulator.js'), '--port', '0', '--balance', '1000000000000'];
const only = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const wanted = (part) => !only || only.includes(part);
// The last release's CLI, started as this build's is and measured in the same rounds: what a change to the request path
// won or lost since (bench/release.js builds it from git).
const release = wanted('load') || wanted('quiet') ? prepareRelease() : { skipped: 'no load rounds' };
const servers = {
  bare: { label: 'bare node:http', args: [script('./servers/bareHttp.js')] },
  hono: { label: 'bare hono app', args: [script('./servers/bareHono.js')] },
  ...(release.skipped === undefined && {
    release: { label: `last release (${release.commit}, default CLI)`, args: [...release.args, ...cli.slice(1)] },
  }),
  emulator: { label: 'sms-emulator (default CLI, realtime clock)', args: cli },
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const log = (line) => process.stdout.write(`${line}\n`);

// Read the machine before pinning: a pinned process sees one CPU.
const results = { size: tiny ? 'tiny' : 'full', sizes: size, machine: machine(pinned, serverCpu), connections };
pinLoadGenerator();

results.release = release;
if (wanted('load')) {
  if (release.skipped !== undefined) log(`bench: the last release is left out: ${release.skipped}`);
  log(`bench (${results.size}): load, ${size.rounds} round(s) of ${size.seconds} s per server and route`);
  results.load = await loadRounds();
}
if (wanted('cold')) {
  log('bench: cold start');
  results.coldStart = await coldStart();
}
if (wanted('scale')) {
  log(`bench: ${size.messages.toLocaleString('en')} messages (jump, memory, lists, reset)`);
  results.scale = await scaleRun({
    messages: size.messages,
    lists: size.listRepeats,
    reset: true,
    memoryBaseline: true,
  });
}
if (wanted('quiet')) {
  log('bench: the same jump with notifyOn: [] (baseline)');
  results.quietJump = await scaleRun({ messages: size.messages, notifyOn: [] });
  // The same jump on the last release, by its own bench/scale.js: the jump's target is a wall-clock figure.
  if (release.scale !== undefined) {
    log('bench: the same jump on the last release');
    results.releaseJump = await scaleRun({ messages: size.messages }, release.scale);
  }
}
if (wanted('million')) {
  log(`bench: ${size.million.toLocaleString('en')} messages (memory)`);
  results.million = await scaleRun({ messages: size.million, memoryBaseline: true });
}
if (wanted('webhooks')) {
  log('bench: webhooks to a local keep-alive receiver');
  results.webhooks = await webhookRun();
}
if (wanted('fixture')) {
  log(`bench: the vitest fixture's per-test cost beside msw (${size.fixtureTests} tests of each kind)`);
  results.fixture = await fixtureCost(size.fixtureTests);
}
if (wanted('kits')) {
  log(`bench: each language kit's cost of a world with the runtime it carries (${size.kitWorlds} worlds each)`);
  results.kits = kitCost(size.kitWorlds);
}
if (wanted('parity')) {
  log(
    `bench: recording overhead (${size.parityRounds} × ${size.parityRequests} requests) and a ${size.parityEvents}-event diff`,
  );
  results.parity = await parityBench(size);
}

if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2));
if (only) {
  log(JSON.stringify(results, null, 2));
  if (results.fixture) {
    writeFileSync(out, withFixtureSection(readFileSync(out, 'utf8'), results));
    log(`bench: wrote the fixture section of ${out}`);
  }
  if (results.kits) {
    writeFileSync(out, withKitSection(readFileSync(out, 'utf8'), results));
    log(`bench: wrote the kits section of ${out}`);
  }
  if (results.parity) {
    writeFileSync(out, withParitySection(readFileSync(out, 'utf8'), results));
    log(`bench: wrote the parity section of ${out}`);
  }
} else {
  writeFileSync(out, renderResults(results));
  log(`bench: wrote ${out}`);
}

/**
 * Every server gets each route in turn, round after round, so drift on the machine hits all of them alike; the order
 * turns round every other round, so none is always measured first or right after another's send round.
 */
async function loadRounds() {
  const started = {};
  for (const [key, server] of Object.entries(servers)) started[key] = await startServer(server.args);
  const routes = { balance: balanceRequest, send: sendRequest(0) };
  const samples = {};
  const sent = {};
  try {
    for (const key of Object.keys(servers)) {
      for (const route of Object.values(routes)) await measure(started[key].origin, route, size.warmup);
    }
    for (let round = 1; round <= size.rounds; round++) {
      const order = round % 2 === 1 ? Object.keys(servers) : Object.keys(servers).reverse();
      for (const [name, route] of Object.entries(routes)) {
        for (const key of order) {
          const { pid } = started[key].child;
          const cpuBefore = cpuTimeOf(pid);
          const sample = await measure(started[key].origin, route, size.seconds);
          sample.cpuUs = ((cpuTimeOf(pid) - cpuBefore) * 1000) / sample.total;
          (samples[`${key}.${name}`] ??= []).push(sample);
          if (name === 'send') sent[key] = (sent[key] ?? 0) + sample.total;
          log(
            `  round ${round} ${name.padEnd(7)} ${servers[key].label.padEnd(44)} ${sample.rps.toFixed(0).padStart(6)} req/s  p99 ${sample.p99} ms  ${sample.cpuUs.toFixed(0)} µs CPU/req`,
          );
        }
      }
      // The emulator's realtime lifecycle of the messages just sent runs for 5 s; let it finish before the next round.
      await sleep(size.settleMs);
    }
    const load = {};
    for (const key of Object.keys(servers)) {
      const of = (name, field) => median(samples[`${key}.${name}`].map((sample) => sample[field]));
      // Ratios are taken within each round (the two servers measured seconds apart), then the median of those.
      const ratio = (name, field) =>
        median(samples[`${key}.${name}`].map((sample, round) => sample[field] / samples[`bare.${name}`][round][field]));
      const route = (name) => ({
        rps: of(name, 'rps'),
        p99: of(name, 'p99'),
        cpuUs: of(name, 'cpuUs'),
        rpsRatio: ratio(name, 'rps'),
        p99Ratio: ratio(name, 'p99'),
      });
      load[key] = {
        label: servers[key].label,
        balance: route('balance'),
        send: route('send'),
        rss: rssOf(started[key].child.pid),
        sent: sent[key],
      };
    }
    return load;
  } finally {
    for (const { child } of Object.values(started)) await stop(child);
  }
}

/** Spawn → first 200 from GET balance, interleaved between the emulator CLI and a bare node:http process. */
async function coldStart() {
  const times = { bare: [], emulator: [] };
  for (let run = 0; run < size.coldRuns; run++) {
    for (const key of Object.keys(times)) {
      const started = performance.now();
      const child = spawnServerSide(servers[key].args);
      const origin = await originOf(child);
      const status = await new Promise((resolve, reject) => {
        const req = request(`${origin}/v1/messages/balance`, { headers: { authorization }, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on('error', reject);
        req.end();
      });
      times[key].push(performance.now() - started);
      await stop(child);
      if (status !== 200) throw new Error(`bench: ${key} answered ${status} to its first balance request`);
    }
  }
  return { bare: median(times.bare), emulator: median(times.emulator) };
}

/** Runs bench/scale.js (this build's, or the one at `scale`) with `config` on the server CPU and resolves with the figures it reports. */
async function scaleRun(config, scale = script('./scale.js')) {
  const child = fork(scale, [JSON.stringify(config)], {
    execPath: pinned ? 'taskset' : process.execPath,
    execArgv: [
      ...(pinned ? ['-c', String(serverCpu), process.execPath] : []),
      '--expose-gc',
      '--max-old-space-size=8192',
    ],
  });
  return new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`bench: scale run exited (${code}) without figures`)));
  });
}

/** Webhooks/s through the emulator to a keep-alive receiver, against a bare keep-alive agent posting the same count to it. */
async function webhookRun() {
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.end();
    });
  });
  receiver.keepAliveTimeout = 10_000;
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${receiver.address().port}/hook`;
  try {
    const run = await scaleRun({ messages: size.webhookMessages, webhookUrl: url });
    const webhooks = received;
    received = 0;
    const poster = spawnServerSide([script('./poster.js'), url, String(webhooks)]);
    const output = await new Promise((resolve) => {
      let text = '';
      poster.stdout.on('data', (chunk) => (text += chunk));
      poster.once('exit', () => resolve(text));
    });
    const bare = JSON.parse(output);
    return {
      webhooks,
      seconds: run.jumpMs / 1000,
      rate: webhooks / (run.jumpMs / 1000),
      bareRate: bare.sent / (bare.ms / 1000),
    };
  } finally {
    receiver.closeAllConnections();
    receiver.close();
  }
}
