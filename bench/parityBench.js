// The parity part of `npm run bench`: what the recording proxy adds to a request (the same requests straight to an
// emulator and through `record`, interleaved round by round), and how long `parity diff` takes on a 10,000-event transcript.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEmulator, emulatorTranscript, parityDiff, signRequest } from '../dist/index.js';
import { startRecorder } from '../dist/parity/recorder.js';

const auth = `Basic ${Buffer.from('pk_test_sms_emulator:').toString('base64')}`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(url, init) {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return performance.now() - started;
}

function sendInit(index) {
  const body = { recipient: ['27831234567'], message: `bench ${index}` };
  return {
    method: 'POST',
    headers: {
      authorization: auth,
      'content-type': 'application/json',
      signature: signRequest(body, 'sk_test_sms_emulator'),
    },
    body: JSON.stringify(body),
  };
}

/** Median milliseconds per request straight to the emulator and through the recorder, `requests` of each per round. */
async function recordingOverhead(rounds, requests) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-parity-'));
  const upstream = createEmulator({ balance: 1_000_000_000 });
  const { origin } = await upstream.listen({ port: 0 });
  const recorder = await startRecorder({ upstream: origin, out: join(dir, 'session.jsonl') });
  const direct = { balance: [], send: [] };
  const recorded = { balance: [], send: [] };
  try {
    let index = 0;
    for (let round = 0; round < rounds; round++) {
      for (const [base, into] of [
        [origin, direct],
        [recorder.url, recorded],
      ]) {
        for (let i = 0; i < requests; i++) {
          into.balance.push(await timed(`${base}/v1/messages/balance`, { headers: { authorization: auth } }));
          into.send.push(await timed(`${base}/v1/messages`, sendInit(index++)));
        }
      }
    }
  } finally {
    await recorder.close();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    requests: rounds * requests,
    balance: { direct: median(direct.balance), recorded: median(recorded.balance) },
    send: { direct: median(direct.send), recorded: median(recorded.send) },
  };
}

/** A transcript of at least `events` lines from an emulator's own session (sends with their webhooks), then its diff. */
async function diffTiming(events) {
  const emulator = createEmulator({ clock: 'manual', balance: 1_000_000_000, requestJournalLimit: 100_000 });
  emulator.receiveWebhooksLocally('http://bench.hooks/', () => 200);
  emulator.accounts.update('pk_test_sms_emulator', { live: { webhookUrl: 'http://bench.hooks/live' } });
  // Each send gives its request and answer, and two notifications each with its receiver's answer: 6 lines.
  const sends = Math.ceil(events / 6);
  for (let i = 0; i < sends; i++) {
    await emulator.fetch(new Request('http://bench.test/v1/messages', sendInit(i)));
    if (i % 100 === 99) await emulator.clock.advance('10s');
  }
  await emulator.clock.advance('10s');
  const text = await emulatorTranscript(emulator);
  await emulator.close();
  const lines = text.trim().split('\n').length - 1;
  const started = performance.now();
  const report = await parityDiff(text);
  const ms = performance.now() - started;
  return { events: lines, ms, errors: report.counts.error, warnings: report.counts.warn };
}

export async function parityBench(size) {
  const overhead = await recordingOverhead(size.parityRounds, size.parityRequests);
  const diff = await diffTiming(size.parityEvents);
  return { overhead, diff };
}
