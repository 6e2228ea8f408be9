/** parity scenario: a delivery log with late, duplicated and reordered receipts becomes a scenario the vitest fixture reproduces. */

import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { type SmsContext, createSmsTest } from '../../src/vitest/index.js';
import {
  DeliveryLogError,
  type Receipt,
  deliveryLogReceipts,
  incidentScenario,
} from '../../src/parity/incidentScenario.js';
import { smppStatusWords } from '../../src/parity/smppStatusWords.js';
import { docsPage } from '../support/docs.js';

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
    // Overtaken by the delivery receipt, the submission report arrived 18 s after it happened.
    {
      name: 'incident: 27831234568 submitted late',
      behaviour: 'late',
      match: { recipient: '27831234568', status: 'submitted' },
      after: '18s',
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
    {
      line: 1,
      message: 'x',
      recipient: '27831234567',
      status: 'delivered',
      at: Date.parse('2026-11-21T10:00:05Z'),
      recipientColumn: 'to',
    },
  ]);
  expect(() => deliveryLogReceipts('id,recipient,status,time\nm1,278,delivered,yesterday\n')).toThrow(
    'row 1, column "time": "yesterday" is not a time',
  );
  const backwards =
    'id,recipient,status,time\nm1,27831234567,delivered,2026-11-21T10:00:01Z\nm1,27831234567,submitted,2026-11-21T10:00:02Z\n';
  expect(() => incidentScenario(deliveryLogReceipts(backwards))).toThrow(DeliveryLogError);
  expect(() => incidentScenario(deliveryLogReceipts(backwards))).toThrow(
    /message m1 to 27831234567: its statuses delivered → submitted are not a legal walk \(a leg cannot go from delivered to submitted\): rows 1, 2$/,
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
      recipientColumn: 'recipient',
    },
  ]);
});

/** The posts a scenario made from `log` gives the log's recipient when its message is sent at the world's start and the clock stepped a second at a time: each post's status, when it happened and when it was tried, in seconds after the send. */
async function steppedPosts(sms: SmsContext, log: string, seconds: number): Promise<[string, number, number][]> {
  const { scenario } = incidentScenario(deliveryLogReceipts(log));
  await sms.scenario.set(scenario);
  const start = sms.now().getTime();
  const { id } = await sms.client.send({ recipient: '27831234567', message: 'Incident' });
  for (let step = 0; step < seconds; step++) await sms.clock.advance('1s');
  const events = (await sms.emulator.webhooks.list({ message: id })).items;
  return events
    .map((event): [string, number, number] => [
      event.status,
      (Date.parse(event.createdAt) - start) / 1000,
      (Date.parse(event.attempts[0]?.at ?? 'NaN') - start) / 1000,
    ])
    .sort((a, b) => a[2] - b[2]);
}

test.for([
  [
    'duplicates keep their logged gaps: a receipt that arrived twice 2 s apart is posted twice 2 s apart',
    `id,recipient,status,time,received
m1,27831234567,submitted,2026-11-21T10:00:01Z,2026-11-21T10:00:01Z
m1,27831234567,delivered,2026-11-21T10:00:05Z,2026-11-21T10:00:05Z
m1,27831234567,delivered,2026-11-21T10:00:05Z,2026-11-21T10:00:07Z
`,
    [
      ['submitted', 1, 1],
      ['delivered', 5, 5],
      ['delivered', 5, 7],
    ],
  ],
  [
    'a held submitted keeps its gap: overtaken by the delivery receipt and arriving 3 s after it, it is posted 3 s after it',
    `id,recipient,status,time,received
m1,27831234567,delivered,2026-11-21T10:00:05Z,2026-11-21T10:00:05Z
m1,27831234567,submitted,2026-11-21T10:00:01Z,2026-11-21T10:00:08Z
`,
    [
      ['delivered', 5, 5],
      ['submitted', 1, 8],
    ],
  ],
] as const)('%s', async ([, log, posts], { sms }) => {
  expect(await steppedPosts(sms, log, 10)).toEqual(posts);
});

test('an expiry counts as the log has it: expired 48 h after submitted replays 48 h 1 s after the send, past the validity period', async ({
  sms,
}) => {
  const log = `id,recipient,status,time,sent
m1,27831234567,submitted,2026-11-21T10:00:01Z,2026-11-21T10:00:00Z
m1,27831234567,expired,2026-11-23T10:00:01Z,2026-11-21T10:00:00Z
`;
  const { scenario } = incidentScenario(deliveryLogReceipts(log));
  await sms.scenario.set(scenario);
  const start = sms.now().getTime();
  const { id } = await sms.client.send({ recipient: '27831234567', message: 'Incident' });
  await sms.clock.advance('48h');
  expect((await sms.emulator.messages.get(id)).status).toBe('submitted');
  await sms.clock.advance('1s');
  const events = (await sms.emulator.webhooks.list({ message: id })).items;
  expect(events.map((event) => [event.status, Date.parse(event.createdAt) - start])).toEqual([
    ['submitted', 1000],
    ['expired', 48 * 3_600_000 + 1000],
  ]);
});

/** The DeliveryLogError `run` throws. */
function refusal(run: () => unknown): DeliveryLogError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DeliveryLogError);
    expect((error as DeliveryLogError).code).toBe('DELIVERY_LOG_INVALID');
    return error as DeliveryLogError;
  }
  throw new Error('not refused');
}

test("a time without an offset is refused naming the row and the log's column, or read in the zone timeZone names, never the machine's", () => {
  const log =
    'Message ID,MSISDN,Stat,Done Date\nm1,+27831234567,DELIVRD,2026-11-21T10:00:05Z\nm1,+27831234567,DELIVRD,2026-11-21 12:00:07\n';
  expect(refusal(() => deliveryLogReceipts(log)).description).toBe(
    'row 2, column "Done Date": "2026-11-21 12:00:07" has no UTC offset, so it names a different instant in every zone: give the times with theirs (Z, +02:00), or name the zone they were written in with --timezone <IANA zone> (timeZone)',
  );
  const zone = process.env.TZ;
  try {
    for (const machine of ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
      process.env.TZ = machine;
      expect(deliveryLogReceipts(log, { timeZone: 'Africa/Johannesburg' }).map((receipt) => receipt.at)).toEqual([
        Date.parse('2026-11-21T10:00:05Z'),
        Date.parse('2026-11-21T10:00:07Z'),
      ]);
    }
  } finally {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  }
  const at = (time: string, timeZone: string) =>
    deliveryLogReceipts(`id;to;status;time\nm1;27831234567;delivered;${time}\n`, { timeZone })[0]?.at;
  // Summer time, and the hour that happens twice read as its first.
  expect(at('2026-07-01 12:00:00', 'Europe/London')).toBe(Date.parse('2026-07-01T11:00:00Z'));
  expect(at('2026-10-25 01:30:00', 'Europe/London')).toBe(Date.parse('2026-10-25T00:30:00Z'));
  expect(refusal(() => at('2026-03-29 01:30:00', 'Europe/London')).description).toMatch(
    /^row 1, column "time": "2026-03-29 01:30:00" never happens in the zone given/,
  );
  expect(refusal(() => at('2026-07-01 12:00:00', 'Mars/Olympus')).description).toBe(
    'the time zone "Mars/Olympus" is not an IANA zone (such as Africa/Johannesburg)',
  );
  // A time with its offset is read as it says, whatever the zone given.
  expect(at('2026-07-01T12:00:00+05:30', 'Europe/London')).toBe(Date.parse('2026-07-01T06:30:00Z'));
});

test('numbers the API refuses are left out with a warning naming their rows, or refused with strict naming the row and column', () => {
  const log = `id;MSISDN;status;time
m1;+27831234567;delivered;2026-11-21T10:00:05Z
m2;+447911123456;delivered;2026-11-21T10:00:06Z
m3;0831234567;delivered;2026-11-21T10:00:07Z
`;
  const receipts = deliveryLogReceipts(log);
  const made = incidentScenario(receipts);
  expect(made.warnings).toEqual([
    'skipped 2 row(s) whose recipient is not a number the API takes (27 followed by nine digits): rows 2, 3; --strict refuses the log instead',
  ]);
  expect(made.legs.map((leg) => leg.recipient)).toEqual(['27831234567']);
  // A left-out row counts for nothing: its send time does not make the log's other legs orphans.
  const onlyRefusedSent = deliveryLogReceipts(
    'id;to;status;time;sent\nm1;27831234567;delivered;2026-11-21T10:00:05Z;\nm2;0831234567;delivered;2026-11-21T10:00:06Z;2026-11-21T10:00:00Z\n',
  );
  expect(incidentScenario(onlyRefusedSent).scenario.rules).toHaveLength(1);
  expect(refusal(() => incidentScenario(receipts, 'log.csv', { strict: true })).description).toBe(
    'row 2, column "MSISDN": "447911123456" is not a number the API takes (27 followed by nine digits; it answers INVALID_RECIPIENT_ENTRY), nor are those of rows 3',
  );
});

test('the SMPP receipt words are read as the emulator statuses the table in docs/parity.md gives', () => {
  const words = Object.keys(smppStatusWords);
  expect(words).toEqual(['ENROUTE', 'ACCEPTD', 'DELIVRD', 'UNDELIV', 'EXPIRED', 'REJECTD', 'DELETED', 'UNKNOWN']);
  const log = `id,to,stat,time\n${words.map((word, index) => `m${index},27831234567,${word.toLowerCase() === 'enroute' ? word : word},2026-11-21T10:00:0${index}Z`).join('\n')}\n`;
  const read = deliveryLogReceipts(log).map((receipt) => receipt.status);
  expect(read).toEqual([
    'submitted',
    'submitted',
    'delivered',
    'undelivered',
    'expired',
    'undelivered',
    'undelivered',
    'undelivered',
  ]);
  const page = docsPage('parity.md');
  for (const [word, { status, why }] of Object.entries(smppStatusWords))
    expect(page, word).toContain(`| \`${word}\` | \`${status}\` | ${why} |`);
  expect(
    refusal(() => deliveryLogReceipts('id,to,stat,time\nm1,27831234567,DELIVERD,2026-11-21T10:00:00Z\n')).description,
  ).toMatch(
    /^row 1, column "stat": "DELIVERD" is not a status: give one of pending, .*, reply, or an SMPP receipt word \(ENROUTE, ACCEPTD/,
  );
});

test('the delimiter is detected: the same log separated by commas, semicolons or tabs gives the same receipts', () => {
  const rows = [
    ['id', 'recipient', 'status', 'time', 'text'],
    ['m1', '27831234567', 'submitted', '2026-11-21T10:00:01Z', ''],
    ['m1', '27831234567', 'reply', '2026-11-21T10:00:09Z', '"Yes; please, at 10"'],
  ];
  const read = (delimiter: string): Receipt[] => deliveryLogReceipts(rows.map((row) => row.join(delimiter)).join('\n'));
  expect(read(',')).toHaveLength(2);
  expect(read(',')[1]?.text).toBe('Yes; please, at 10');
  expect(read(';')).toEqual(read(','));
  expect(read('\t')).toEqual(read(','));
});

test("errors name the log's own columns, never a field of the reader", () => {
  const missing = refusal(() => deliveryLogReceipts('Message ID;MSISDN;Stat\nm1;27831234567;DELIVRD\n'));
  expect(missing.description).toBe(
    "row 1: no column for the time of the status (one named time, status_time, statustime, timestamp, at, date, delivery_date, done_date, updated_at); the log's columns are Message ID, MSISDN, Stat",
  );
  const empty = refusal(() =>
    deliveryLogReceipts('Message ID;MSISDN;Stat;Done Date\nm1;27831234567;;2026-11-21T10:00:00Z\n'),
  );
  expect(empty.description).toBe('row 1, column "Stat": empty (the status)');
  const bad = refusal(() =>
    deliveryLogReceipts(
      'Message ID;MSISDN;Stat;Received At;Done Date\nm1;27831234567;DELIVRD;soon;2026-11-21T10:00:00Z\n',
    ),
  );
  expect(bad.description).toMatch(/^row 1, column "Received At": "soon" is not a time/);
});

test('the scenario names its source without an absolute path', () => {
  const made = incidentScenario(deliveryLogReceipts(log), '/home/someone/incidents/incident.csv');
  expect(made.source).toBe('incident.csv');
  expect(JSON.stringify(made.scenario)).not.toContain('/home/');
  expect(incidentScenario(deliveryLogReceipts(log), 'incidents/incident.csv').scenario.description).toMatch(
    /^Reproduces incidents\/incident\.csv:/,
  );
});

test('a log of more numbers than a scenario holds rules for is refused as a delivery log error, naming the bound', () => {
  const rows = Array.from(
    { length: 1001 },
    (_, index) => `m${index},${27830000000 + index},delivered,2026-11-21T10:00:05Z`,
  );
  const many = `id,recipient,status,time\n${rows.join('\n')}\n`;
  expect(() => incidentScenario(deliveryLogReceipts(many))).toThrow(DeliveryLogError);
  expect(() => incidentScenario(deliveryLogReceipts(many))).toThrow(
    'the log shows 1001 numbers, each its own rule; a scenario holds at most 1000',
  );
});

test('a log of more replies than a scenario holds is refused as a delivery log error, naming the bound', () => {
  const replies = Array.from({ length: 1001 }, () => 'm0,27830000000,reply,2026-11-21T10:00:09Z');
  const many = `id,recipient,status,time\nm0,27830000000,delivered,2026-11-21T10:00:05Z\n${replies.join('\n')}\n`;
  expect(() => incidentScenario(deliveryLogReceipts(many))).toThrow(DeliveryLogError);
  expect(() => incidentScenario(deliveryLogReceipts(many))).toThrow(
    'the log shows 1001 replies; a scenario holds at most 1000',
  );
});

test('a delivery log with its header and no rows, or a JSON one with no receipts, is refused, not an empty scenario', () => {
  expect(() => deliveryLogReceipts('id,recipient,status,time\n')).toThrow(
    'the delivery log has its header and no rows',
  );
  expect(() => deliveryLogReceipts('id;recipient;status;time\r\n\r\n')).toThrow(DeliveryLogError);
  expect(() => deliveryLogReceipts('[]')).toThrow('the delivery log has no receipts');
  expect(() => deliveryLogReceipts('{"items": []}')).toThrow(DeliveryLogError);
});

test('a row separated by another delimiter than the header is refused naming both, not as its columns missing', () => {
  const mixed =
    'id,recipient,status,time\nm1,27831234567,delivered,2026-11-21T10:00:05Z\nm2;27831234568;delivered;2026-11-21T10:00:06Z\n';
  expect(() => deliveryLogReceipts(mixed)).toThrow(
    'row 2 is separated by ";", the header by ",": one delimiter for the whole log',
  );
  const tabs = 'id\trecipient\tstatus\ttime\nm1,27831234567,delivered,2026-11-21T10:00:05Z\n';
  expect(() => deliveryLogReceipts(tabs)).toThrow('row 1 is separated by ",", the header by tabs');
});
