/** parity scenario: a delivery log with late, duplicated and reordered receipts becomes a scenario the vitest fixture reproduces. */

import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { createSmsTest } from '../../src/vitest/index.js';
import { DeliveryLogError, deliveryLogReceipts, incidentScenario } from '../../src/parity/incidentScenario.js';

const log = readFileSync(new URL('../fixtures/parity/incident.csv', import.meta.url), 'utf8');
const test = createSmsTest({ emulator: { clock: 'manual', seed: 'incident', startTime: '2026-11-21T10:00:00Z' } });

test('the scenario gives each number its observed timeline and each behaviour seen', () => {
  const { scenario, legs } = incidentScenario(deliveryLogReceipts(log), 'incident.csv');
  expect(scenario.rules).toEqual([
    {
      name: 'incident: 27831234567',
      match: { recipient: '27831234567' },
      outcome: {
        timeline: [
          { status: 'submitted', after: '1s' },
          { status: 'delivered', after: '4s' },
        ],
      },
    },
    {
      name: 'incident: 27831234568',
      match: { recipient: '27831234568' },
      outcome: {
        timeline: [
          { status: 'submitted', after: '1s' },
          { status: 'delivered', after: '18s' },
        ],
      },
    },
    {
      name: 'incident: 27831234569',
      match: { recipient: '27831234569' },
      outcome: {
        timeline: [
          { status: 'submitted', after: '1s' },
          { status: 'undelivered', after: '29s' },
        ],
      },
    },
  ]);
  expect(scenario.webhooks).toEqual([
    {
      name: 'incident: 27831234567 delivered duplicated',
      behaviour: 'duplicate',
      match: { recipient: '27831234567', status: 'delivered' },
      times: 2,
    },
    { name: 'incident: 27831234568 reordered', behaviour: 'reorder', match: { recipient: '27831234568' } },
    {
      name: 'incident: 27831234569 undelivered late',
      behaviour: 'late',
      match: { recipient: '27831234569', status: 'undelivered' },
      after: '6h',
    },
  ]);
  expect(legs.map((leg) => [leg.recipient, leg.sentAt])).toEqual([
    ['27831234567', 0],
    ['27831234568', 2000],
    ['27831234569', 0],
  ]);
});

test('loaded in the vitest fixture, the scenario reproduces the statuses in order at the same virtual times', async ({
  sms,
}) => {
  const receipts = deliveryLogReceipts(log);
  const { scenario, legs } = incidentScenario(receipts, 'incident.csv');
  await sms.scenario.set(scenario);
  const start = sms.now().getTime();
  const ids = new Map<string, string>();
  for (const leg of [...legs].sort((a, b) => a.sentAt - b.sentAt)) {
    const due = start + leg.sentAt - sms.now().getTime();
    if (due > 0) await sms.clock.advance(due);
    ids.set(leg.recipient, (await sms.client.send({ recipient: leg.recipient, message: 'Incident' })).id);
  }
  await sms.clock.advance('7h');
  const origin = Date.parse('2026-11-21T10:00:00Z');
  for (const [recipient, id] of ids) {
    const expected = receipts
      .filter((receipt) => receipt.recipient === recipient)
      .sort((a, b) => (a.received ?? 0) - (b.received ?? 0) || a.line - b.line)
      .map((receipt) => [receipt.status, receipt.at - origin]);
    // The catcher keeps the posts in the order they arrived; the webhook log has each status's own time.
    const arrived = sms.webhooks().filter((payload) => payload.id === id);
    expect(
      arrived.map((payload) => payload.status),
      recipient,
    ).toEqual(expected.map(([status]) => status));
    const events = (await sms.emulator.webhooks.list({ message: id })).items;
    const times = events.map((event) => [event.status, Date.parse(event.createdAt) - start]);
    for (const pair of expected) expect(times, recipient).toContainEqual(pair);
  }
  // The late receipt arrives six hours after its status, as it did in the incident.
  const late = (await sms.emulator.webhooks.list({ message: ids.get('27831234569') })).items.find(
    (event) => event.status === 'undelivered',
  );
  expect(Date.parse(late!.attempts[0]!.at) - Date.parse(late!.createdAt)).toBe(6 * 3_600_000);
});

test('a transcript and a JSON delivery log are read too; a bad row or an illegal walk is named', () => {
  const json = JSON.stringify({
    deliveries: [{ message_id: 'x', to: '+27831234567', state: 'DELIVERED', timestamp: '2026-11-21T10:00:05Z' }],
  });
  expect(deliveryLogReceipts(json)).toEqual([
    { line: 1, message: 'x', recipient: '27831234567', status: 'delivered', at: Date.parse('2026-11-21T10:00:05Z') },
  ]);
  expect(() => deliveryLogReceipts('id,recipient,status\nm1,27831234567,delivered\n')).toThrow(
    'row 1: no at (a column named time',
  );
  expect(() => deliveryLogReceipts('id,recipient,status,time\nm1,278,delivered,yesterday\n')).toThrow(
    'row 1: time "yesterday" is not a time',
  );
  const backwards =
    'id,recipient,status,time\nm1,27831234567,delivered,2026-11-21T10:00:01Z\nm1,27831234567,submitted,2026-11-21T10:00:02Z\n';
  expect(() => incidentScenario(deliveryLogReceipts(backwards))).toThrow(DeliveryLogError);
  expect(() => incidentScenario(deliveryLogReceipts(backwards))).toThrow(
    /message m1 to 27831234567: its statuses delivered → submitted are not a legal walk/,
  );
});

test('a JSON delivery log nested deeper than 512 levels is refused before its receipts are read', () => {
  const deep = `[{"id":"m1","recipient":"27831234567","status":${'['.repeat(100_000)}${']'.repeat(100_000)}}]`;
  expect(() => deliveryLogReceipts(deep)).toThrow(DeliveryLogError);
  expect(() => deliveryLogReceipts(deep)).toThrow('nested deeper than 512 levels');
});

test('a CSV field in quotes keeps its commas, quotes and line breaks', () => {
  const csv = 'id,recipient,status,time,text\r\nm1,27831234567,reply,2026-11-21T10:00:09Z,"Yes, ""please""\nat 10"\r\n';
  expect(deliveryLogReceipts(csv)).toEqual([
    {
      line: 1,
      message: 'm1',
      recipient: '27831234567',
      status: 'reply',
      at: Date.parse('2026-11-21T10:00:09Z'),
      text: 'Yes, "please"\nat 10',
    },
  ]);
});
