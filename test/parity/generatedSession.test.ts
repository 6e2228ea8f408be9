/** The emulator's own long session (10,000 events and more, both encodings past one segment) replays with no finding. */

import { beforeAll, expect, test } from 'vitest';
import { countSegments } from '../../src/domain/segments.js';
import { parityDiff } from '../../src/parity/parityDiff.js';
import { generatedSession, sessionTranscript } from '../support/paritySession.js';

let transcript: string;

beforeAll(async () => {
  transcript = await sessionTranscript((target) => generatedSession(target, 510), {
    balance: 1_000_000,
    requestJournalLimit: 100_000,
  });
}, 60_000);

type Line = Record<string, any>;
const linesOf = (text: string): Line[] =>
  text
    .trim()
    .split('\n')
    .map((row) => JSON.parse(row) as Line);

test('a generated session of 10,000 events, magic-number replies included, replays into a fresh emulator with no finding at all', async () => {
  const lines = linesOf(transcript);
  expect(lines.length - 1).toBeGreaterThanOrEqual(10_000);
  expect(lines.filter((line) => line.type === 'reply').length).toBeGreaterThan(50);
  const report = await parityDiff(transcript);
  expect(report.findings.slice(0, 5)).toEqual([]);
  expect(report.counts).toEqual({ info: 0, warn: 0, error: 0 });
}, 60_000);

test('the generated session sends both encodings past their one-segment limits, so a UCS-2 credit drift is found', async () => {
  const lines = linesOf(transcript);
  const sent = lines.flatMap((line) =>
    line.type === 'request' && typeof line.body?.message === 'string' ? [countSegments(line.body.message)] : [],
  );
  for (const encoding of ['GSM-7', 'UCS-2'])
    expect(Math.max(...sent.filter((text) => text.encoding === encoding).map((text) => text.segments))).toBeGreaterThan(
      2,
    );
  // A provider that fills UCS-2 parts to 70 units instead of 67 charges a long UCS-2 text one segment less.
  const requests = new Map(lines.filter((line) => line.type === 'request').map((line) => [line.id, line]));
  for (const line of lines) {
    const text = requests.get(line.request)?.body?.message;
    if (line.type !== 'answer' || line.status !== 201 || typeof text !== 'string') continue;
    const segments = countSegments(text);
    if (segments.encoding === 'UCS-2' && Math.ceil(segments.units / 70) < segments.segments)
      line.body.credit -= line.body.recipient.length;
  }
  const report = await parityDiff(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  expect(report.findings.map((finding) => finding.kind)).toContain('credit-changed');
  expect(report.passed).toBe(false);
}, 60_000);
