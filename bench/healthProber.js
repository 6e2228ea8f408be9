// A worker thread of bench/snapshotImport.js: asks `origin` for health every `everyMs` ms, each on a new connection (as
// a health checker does), until told to stop; then posts [asked at (ms since it started), answered in (ms)] for each.
import { request } from 'node:http';
import { clearInterval, setInterval } from 'node:timers';
import { parentPort, workerData } from 'node:worker_threads';

const { origin, everyMs } = workerData;
const started = performance.now();
const answers = [];
let inFlight = 0;
let stopping = false;

function ask() {
  const asked = performance.now();
  inFlight += 1;
  const sent = request(`${origin}/_emulator/health`, { agent: false }, (answer) => {
    answer.resume();
    answer.on('end', () => {
      answers.push([asked - started, performance.now() - asked]);
      done();
    });
  });
  sent.on('error', done);
  sent.end();
}

function done() {
  inFlight -= 1;
  if (stopping && inFlight === 0) parentPort.postMessage(answers);
}

const timer = setInterval(ask, everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  stopping = true;
  if (inFlight === 0) parentPort.postMessage(answers);
  parentPort.close();
});
