// A worker thread of bench/snapshotImport.js: asks `origin` for health every `everyMs` ms, each on a new connection (as
// a health checker does), until told to stop; then posts [asked at (ms since it started), answered in (ms)] for each,
// and [asked at, error] for each that failed or got no answer within 10 s.
import { request } from 'node:http';
import { clearInterval, setInterval } from 'node:timers';
import { parentPort, workerData } from 'node:worker_threads';

const { origin, everyMs } = workerData;
const started = performance.now();
const answers = [];
const failures = [];
let inFlight = 0;
let stopping = false;

// How late this thread's own timer fired at worst: a health answer can look slow because the client was held.
let lastTick = performance.now();
let longestTickMs = 0;

function ask() {
  const asked = performance.now();
  longestTickMs = Math.max(longestTickMs, asked - lastTick);
  lastTick = asked;
  inFlight += 1;
  let settled = false;
  const settle = (outcome) => {
    if (settled) return;
    settled = true;
    if (typeof outcome === 'number') answers.push([asked - started, outcome]);
    else failures.push([asked - started, outcome]);
    done();
  };
  const sent = request(
    `${origin}/_emulator/health?asked=${performance.timeOrigin + asked}`,
    { agent: false, timeout: 10_000 },
    (answer) => {
      answer.resume();
      answer.on('end', () => settle(performance.now() - asked));
    },
  );
  sent.on('timeout', () => {
    settle('no answer within 10 s');
    sent.destroy();
  });
  sent.on('error', (error) => settle(error.code ?? error.message));
  sent.end();
}

function done() {
  inFlight -= 1;
  if (stopping && inFlight === 0) parentPort.postMessage({ answers, failures, longestTickMs });
}

const timer = setInterval(ask, everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  stopping = true;
  if (inFlight === 0) parentPort.postMessage({ answers, failures, longestTickMs });
});
