/** The recording proxy: a session recorded through it against a second emulator diffs against a fresh one with nothing to report. */

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startRecorder } from '../../src/parity/recorder.js';
import { parityDiff } from '../../src/parity/parityDiff.js';
import { parseTranscript } from '../../src/parity/transcript.js';
import type { Emulator } from '../../src/index.js';
import { apiKey, makeEmulator } from '../support/api.js';
import { everyOperationSession } from '../support/paritySession.js';

const dir = mkdtempSync(join(tmpdir(), 'sms-emulator-record-'));

async function recordSession(file: string, relay?: string, perturb?: (upstream: Emulator) => void): Promise<string> {
  const upstream = makeEmulator();
  perturb?.(upstream);
  const { origin } = await upstream.listen({ port: 0 });
  const recorder = await startRecorder({
    upstream: origin,
    out: file,
    // The upstream's virtual clock is the provider's time: the line times follow it, not the wall clock.
    now: () => upstream.clock.now().getTime(),
    ...(relay === undefined ? {} : { relay }),
  });
  try {
    upstream.accounts.update(apiKey, {
      live: { webhookUrl: recorder.webhookUrl },
      sandbox: { webhookUrl: recorder.webhookUrl },
    });
    await everyOperationSession({
      base: recorder.url,
      fetch: (request) => fetch(request),
      advance: (ms) => upstream.clock.advance(ms),
      inject: (id, from, text) => upstream.replies.inject(id, { from, text }),
    });
  } finally {
    await recorder.close();
    await upstream.close();
  }
  return readFileSync(file, 'utf8');
}

test('a session of every /v1 operation, webhooks and a reply recorded through the proxy diffs against a fresh emulator with no error and no warning', async () => {
  const text = await recordSession(join(dir, 'session.jsonl'));
  const { header, events } = parseTranscript(text);
  expect(header).toMatchObject({ source: 'record', values: { 'ref:1': 'order-42' } });
  const report = await parityDiff(text);
  expect(report.lines).toEqual({ account: 2, request: 16, answer: 16, webhook: 7, 'webhook-answer': 7, reply: 1 });
  expect(report.findings.filter((finding) => finding.tier !== 'info')).toEqual([]);
  expect(report.counts).toMatchObject({ error: 0, warn: 0 });
  // The recorder keeps what the API is about and drops the rest: no host, no lengths, and never the key itself.
  const first = events.find((event) => event.type === 'request');
  expect(first).toMatchObject({
    headers: { authorization: 'Basic {{key}}', signature: '{{signature}}', 'content-type': 'application/json' },
  });
  expect(Object.keys((first as { headers: object }).headers).sort()).toEqual([
    'authorization',
    'content-type',
    'signature',
  ]);
  expect(text).not.toContain(apiKey);
});

test('a webhook relayed to the app receiver is answered as the receiver answered, each try recorded with its answer', async () => {
  let calls = 0;
  // The app's receiver fails the first post it gets, then takes everything.
  const server = await import('node:http').then(({ createServer }) =>
    createServer((request, response) => {
      calls += 1;
      request.resume();
      request.on('end', () => {
        response.writeHead(calls === 1 ? 500 : 200);
        response.end();
      });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    const text = await recordSession(join(dir, 'relayed.jsonl'), `http://127.0.0.1:${port}/hooks`);
    const { events } = parseTranscript(text);
    const posts = events.flatMap((event) => (event.type === 'webhook' ? [event] : []));
    const answers = events.flatMap((event) => (event.type === 'webhook-answer' ? [event] : []));
    const failed = answers.filter((answer) => answer.status !== 200);
    expect(failed).toHaveLength(1);
    const first = posts.find((post) => post.id === failed[0]!.webhook)!;
    expect(first.attempt).toBe(1);
    // The provider tried the same notification again; the recorder counts it as that notification's second try.
    const retry = posts.find((post) => post.attempt === 2)!;
    expect(retry.payload).toEqual(first.payload);
    expect(posts.indexOf(retry)).toBeGreaterThan(posts.indexOf(first));
    const report = await parityDiff(text);
    expect(report.counts).toMatchObject({ error: 0, warn: 0 });
  } finally {
    server.close();
  }
});

test('a provider perturbed by a scenario while recording is found: its undelivered leg is a changed status word, not a missing and an extra notification', async () => {
  const text = await recordSession(join(dir, 'perturbed.jsonl'), undefined, (upstream) =>
    upstream.scenario.set({ version: 1, rules: [{ match: { recipient: '27831234568' }, outcome: 'undelivered' }] }),
  );
  const report = await parityDiff(text);
  const webhooks = report.findings.filter((finding) => finding.field.startsWith('webhook'));
  expect(
    webhooks.map(({ tier, kind, field, recorded, emulator }) => ({ tier, kind, field, recorded, emulator })),
  ).toEqual([
    {
      tier: 'error',
      kind: 'webhook-status-changed',
      field: 'webhook.payload.status',
      recorded: 'undelivered',
      emulator: 'delivered',
    },
  ]);
  expect(webhooks[0]!.message).toMatch(
    /^line \d+: webhook.payload.status: the transcript has "undelivered", the emulator "delivered"/,
  );
  expect(report.passed).toBe(false);
});
