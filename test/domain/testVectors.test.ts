/** The shared test vectors (test-vectors/): the emulator's signer, schedule formatting and webhooks agree with every one. */

import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { canonicalString, countSegments, explainCost, signRequest } from '../../src/index.js';
import { formatSchedule } from '../../src/client/index.js';
// The generator runs on the build, as `npm run vectors` does (npm test builds first).
import { scheduleVectors, segmentVectors, signingVectors, webhookVectors } from '../../scripts/testVectors.js';

const read = (name: string) => JSON.parse(readFileSync(new URL(`../../test-vectors/${name}`, import.meta.url), 'utf8'));

interface SigningCase {
  name: string;
  secret: string;
  fields: Record<string, unknown>;
  canonical: string;
  signature: string;
}

const signing = read('signing.json') as { cases: SigningCase[] };
const schedule = read('schedule.json') as {
  cases: { name: string; instant: string; offset: string; schedule: string }[];
};

test.each(signing.cases.map((entry) => [entry.name, entry] as const))('signing vector: %s', (_, entry) => {
  expect(canonicalString(entry.fields)).toBe(entry.canonical);
  expect(signRequest(entry.fields, entry.secret)).toBe(entry.signature);
  // The file holds together on its own too: its signature is the HMAC of its canonical string.
  expect(createHmac('sha256', entry.secret).update(entry.canonical).digest('hex')).toBe(entry.signature);
});

test.each(schedule.cases.map((entry) => [entry.name, entry] as const))('schedule vector: %s', (_, entry) => {
  expect(formatSchedule(new Date(entry.instant), entry.offset)).toBe(entry.schedule);
});

const segments = read('segments.json') as ReturnType<typeof segmentVectors>;

test.each(segments.cases.map((entry) => [entry.name, entry] as const))('segment vector: %s', (_, entry) => {
  expect(countSegments(entry.text)).toEqual({ encoding: entry.encoding, units: entry.units, segments: entry.segments });
  expect(explainCost(entry.text).triggers[0]?.char ?? null).toBe(entry.ucs2Trigger);
});

test('the segment vectors hold at least 300 cases, and the boundary cases where a pair straddles a part cost one more', () => {
  expect(segments.cases.length).toBeGreaterThanOrEqual(300);
  const straddling = segments.cases.filter((entry) =>
    /after (152|66) (septets|units), at the part boundary/.test(entry.name),
  );
  expect(straddling.length).toBeGreaterThan(0);
  for (const entry of straddling) expect(entry.segments, entry.name).toBe(3);
});

test('the vector files are what the emulator computes from their inputs (npm run vectors writes them)', async () => {
  expect(signing).toEqual(signingVectors());
  expect(schedule).toEqual(scheduleVectors());
  expect(segments).toEqual(segmentVectors());
  expect(read('webhooks.json')).toEqual(await webhookVectors());
});

test('the webhook vectors hold a notification of every leg status the emulator notifies on, a reply and a STOP reply', () => {
  const { cases } = read('webhooks.json') as { cases: { kind: string; payload: { type: string; status: string } }[] };
  const statuses = new Set(cases.filter((entry) => entry.kind === 'delivery').map((entry) => entry.payload.status));
  expect([...statuses].sort()).toEqual(
    ['blist', 'delivered', 'expired', 'failed', 'noroute', 'submitted', 'undelivered'].sort(),
  );
  expect(cases.filter((entry) => entry.kind !== 'delivery').map((entry) => entry.kind)).toEqual([
    'reply',
    'stop-reply',
  ]);
});
