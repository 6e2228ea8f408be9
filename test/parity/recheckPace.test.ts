/** RecheckPace: a recheck's requests at their recorded times over the pace factor, never before the provider moved. */

import { expect, test } from 'vitest';
import { RecheckPace } from '../../src/parity/recheckPace.js';
import { parseTranscript } from '../../src/parity/transcript.js';

const lines = [
  { version: 1, type: 'header', source: 'record', startTime: '2026-11-21T08:00:00.000Z', timeZone: '+02:00' },
  { t: 0, type: 'request', id: 'r1', method: 'POST', path: '/v1/messages', environment: 'live', headers: {} },
  { t: 40, type: 'answer', request: 'r1', status: 201, body: { id: '{{id:1}}', status: 'pending' } },
  { t: 1000, type: 'request', id: 'r2', method: 'GET', path: '/v1/messages/balance', environment: 'live', headers: {} },
  { t: 1010, type: 'answer', request: 'r2', status: 200, body: { balance: 9 } },
  {
    t: 5000,
    type: 'webhook',
    id: 'w1',
    attempt: 1,
    payload: { id: '{{id:1}}', status: 'delivered' },
    signatureValid: null,
  },
  {
    t: 7000,
    type: 'request',
    id: 'r3',
    method: 'GET',
    path: '/v1/messages/{{id:1}}',
    environment: 'live',
    headers: {},
  },
  { t: 7010, type: 'answer', request: 'r3', status: 200, body: { id: '{{id:1}}', status: 'delivered' } },
];
const transcript = parseTranscript(lines.map((line) => JSON.stringify(line)).join('\n'));

test('requests go out at their recorded offsets when the pace is 1', () => {
  const pace = new RecheckPace(transcript);
  const sent = new Map([
    ['r1', 100],
    ['r2', 1100],
  ]);
  expect(['r1', 'r2', 'r3'].map((id) => pace.dueOf(id, 100, sent))).toEqual([100, 1100, 7100]);
});

test('a faster pace divides the gaps, but a read after a notification waits the time the provider took to move', () => {
  const pace = new RecheckPace(transcript, 10);
  // r1 went out 30 ms late: the delivered notification came 5000 ms after the send, so r3 waits for 30 + 5000.
  const sent = new Map([
    ['r1', 30],
    ['r2', 100],
  ]);
  expect(pace.dueOf('r2', 0, sent)).toBe(100);
  expect(pace.dueOf('r3', 0, sent)).toBe(5030);
  expect(pace.endOf(0, sent)).toBe(5030);
});

test('a pace under 1 is refused', () => {
  expect(() => new RecheckPace(transcript, 0.5)).toThrow(/1 or more/);
});

test("the notifications seen before a request are each message's last one recorded before it", () => {
  const pace = new RecheckPace(transcript);
  expect(pace.seenBefore('r2')).toEqual([]);
  expect(pace.seenBefore('r3')).toEqual([{ message: '{{id:1}}', status: 'delivered' }]);
});
