/** The shared test vectors (test-vectors/): the emulator's signer, schedule formatting and webhooks agree with every one. */

import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { canonicalString, signRequest } from '../../src/index.js';
import { formatSchedule } from '../../src/client/index.js';
// The generator runs on the build, as `npm run vectors` does (npm test builds first).
import { scheduleVectors, signingVectors, webhookVectors } from '../../scripts/testVectors.js';

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

test('the vector files are what the emulator computes from their inputs (npm run vectors writes them)', async () => {
  expect(signing).toEqual(signingVectors());
  expect(schedule).toEqual(scheduleVectors());
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
