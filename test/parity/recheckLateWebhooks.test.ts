/**
 * parityRecheck against a provider that moves later than it did while recorded (a loaded machine): a read the app made
 * after a notification waits for the provider's own notification, so it finds what the app found.
 */

import { expect, test } from 'vitest';
import { parityRecheck } from '../../src/parity/recheck.js';

const lines = [
  { version: 1, type: 'header', source: 'record', startTime: '2026-11-21T08:00:00.000Z', timeZone: '+02:00' },
  { t: 0, type: 'request', id: 'r1', method: 'POST', path: '/v1/messages', environment: 'live', headers: {} },
  { t: 10, type: 'answer', request: 'r1', status: 201, body: { id: '{{id:1}}', status: 'pending' } },
  {
    t: 20,
    type: 'webhook',
    id: 'w1',
    attempt: 1,
    payload: { id: '{{id:1}}', status: 'delivered' },
    signatureValid: null,
  },
  { t: 30, type: 'request', id: 'r2', method: 'GET', path: '/v1/messages/{{id:1}}', environment: 'live', headers: {} },
  { t: 40, type: 'answer', request: 'r2', status: 200, body: { id: '{{id:1}}', status: 'delivered' } },
];
const transcript = lines.map((line) => JSON.stringify(line)).join('\n');

/**
 * A provider that delivers its one message, and posts that, `lateMs` after the send (never when infinite): the
 * transcript shows it took 20 ms, so a recheck paced by the recorded gap alone reads the message while it is pending.
 */
function lateProvider(lateMs = 250): { fetch: (request: Request) => Promise<Response>; hooks: (url: string) => void } {
  let hookUrl = '';
  let status = 'pending';
  const json = (code: number, body: object): Response =>
    new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json' } });
  return {
    hooks: (url) => {
      hookUrl = url;
    },
    fetch: async (request) => {
      const path = new URL(request.url).pathname;
      if (request.method === 'POST' && path === '/v1/messages') {
        if (lateMs !== Number.POSITIVE_INFINITY)
          setTimeout(() => {
            status = 'delivered';
            void fetch(hookUrl, { method: 'POST', body: JSON.stringify({ id: 'm-1', status }) });
          }, lateMs);
        return json(201, { id: 'm-1', status });
      }
      if (path === '/v1/messages/m-1') return json(200, { id: 'm-1', status });
      return json(404, { message: 'not found' });
    },
  };
}

test('a read the app made after a notification waits for the provider to post it when the provider moves late', async () => {
  const provider = lateProvider();
  const report = await parityRecheck(transcript, {
    upstream: 'http://provider.test',
    apiKey: 'pk_late',
    signingSecret: 'late secret',
    fetch: provider.fetch,
    webhooks: { port: 0, onListening: provider.hooks },
  });
  expect(report.findings).toEqual([]);
});

test('a notification the provider never posts is waited for at most settleMs, then the read goes out', async () => {
  const provider = lateProvider(Number.POSITIVE_INFINITY);
  const report = await parityRecheck(transcript, {
    upstream: 'http://provider.test',
    apiKey: 'pk_late',
    signingSecret: 'late secret',
    fetch: provider.fetch,
    webhooks: { port: 0, onListening: provider.hooks },
    settleMs: 50,
  });
  expect(report.findings.map((finding) => finding.kind)).toEqual(['webhook-missing', 'value-changed']);
});
