/** parity diff: a transcript of the emulator's own session replays with no difference, and each drift is found at its tier. */

import { beforeAll, expect, test } from 'vitest';
import { parityDiff, parityReportJunit, parityReportText } from '../../src/parity/parityDiff.js';
import { parityReportPage } from '../../src/parity/parityReportPage.js';
import { parseTranscript } from '../../src/parity/transcript.js';
import { everyOperationSession, sessionTranscript } from '../support/paritySession.js';

let transcript: string;

beforeAll(async () => {
  transcript = await sessionTranscript(everyOperationSession);
});

type Line = Record<string, any>;

/** The transcript with `edit` applied to its lines (1-based line numbers stay as they were unless lines are added). */
function edited(edit: (lines: Line[]) => void): string {
  const lines = transcript
    .trim()
    .split('\n')
    .map((row) => JSON.parse(row) as Line);
  edit(lines);
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

function lineOf(lines: Line[], match: (line: Line) => boolean): number {
  const index = lines.findIndex(match);
  expect(index).toBeGreaterThan(0);
  return index;
}

/** The answer to the request whose path and body match. */
function answerTo(lines: Line[], method: string, path: string, body?: (body: any) => boolean): number {
  const request = lines.find(
    (line) => line.type === 'request' && line.method === method && line.path === path && (body?.(line.body) ?? true),
  );
  return lineOf(lines, (line) => line.type === 'answer' && line.request === request?.id);
}

const firstSend = (body: any): boolean => body?.client_reference === '{{ref:1}}';
const deliveredTo = (number: string) => (line: Line) =>
  line.type === 'webhook' && line.payload.status === 'delivered' && line.payload.recipient[0] === number;

async function findingsOf(text: string) {
  const report = await parityDiff(text);
  return report.findings.map(({ tier, kind, line, field, message }) => ({ tier, kind, line, field, message }));
}

test('a transcript of the emulator session replays into a fresh emulator with no error and no warning', async () => {
  const report = await parityDiff(transcript);
  expect(report.findings).toEqual([]);
  expect(report.passed).toBe(true);
  expect(report.lines).toMatchObject({ request: 16, answer: 16, reply: 1, webhook: 7 });
  expect(parityReportText(report)).toContain('0 error, 0 warn, 0 info: passed');
});

test('the transcript binds ids, references, times and the key as placeholders', () => {
  const { events, header } = parseTranscript(transcript);
  expect(header.values).toEqual({ 'ref:1': 'order-42' });
  expect(transcript).not.toContain('pk_test_sms_emulator');
  const paths = events.flatMap((event) => (event.type === 'request' ? [event.path] : []));
  expect(paths).toContain('/v1/messages/{{id:3}}');
  const scheduled = events.find((event) => event.type === 'request' && (event.body as any)?.message === 'Later');
  expect(scheduled).toMatchObject({
    headers: { authorization: 'Basic {{key}}' },
    body: { schedule: '{{time:+3600000:m}}' },
  });
});

test('a changed status code is an error naming the answer line and answer.status', async () => {
  let at = 0;
  const text = edited((lines) => {
    at = answerTo(lines, 'GET', '/v1/messages/not-a-message');
    lines[at]!.status = 410;
  });
  expect(await findingsOf(text)).toEqual([
    expect.objectContaining({ tier: 'error', kind: 'status', line: at + 1, field: 'answer.status' }),
  ]);
});

test('a changed error code is an error naming the line and answer.body.message', async () => {
  let at = 0;
  const text = edited((lines) => {
    at = answerTo(lines, 'POST', '/v1/messages', (body) => body?.message === 'bad number');
    lines[at]!.body.message = 'RECIPIENT_EMPTY_PARAMETER';
  });
  const findings = await findingsOf(text);
  expect(findings).toEqual([
    expect.objectContaining({ tier: 'error', kind: 'error-code', line: at + 1, field: 'answer.body.message' }),
  ]);
  expect(findings[0]!.message).toContain('RECIPIENT_EMPTY_PARAMETER');
});

test('a swapped error precedence is an error that names both errors', async () => {
  let at = 0;
  const text = edited((lines) => {
    at = answerTo(lines, 'POST', '/v1/messages', (body) => body !== undefined && Object.keys(body).length === 0);
    lines[at]!.body.message = 'MESSAGE_MISSING_PARAMETER';
  });
  const findings = await findingsOf(text);
  expect(findings).toEqual([
    expect.objectContaining({ tier: 'error', kind: 'error-precedence', line: at + 1, field: 'answer.body.message' }),
  ]);
  expect(findings[0]!.message).toMatch(/MESSAGE_MISSING_PARAMETER.*RECIPIENT_MISSING_PARAMETER/);
});

test('a field the provider no longer sends is a warning, a new one is information', async () => {
  let at = 0;
  const text = edited((lines) => {
    at = answerTo(lines, 'POST', '/v1/messages', firstSend);
    delete lines[at]!.body.client_reference;
    lines[at]!.body.network = 'MTN';
  });
  expect(await findingsOf(text)).toEqual([
    expect.objectContaining({ tier: 'info', kind: 'field-added', line: at + 1, field: 'answer.body.network' }),
    expect.objectContaining({
      tier: 'warn',
      kind: 'field-removed',
      line: at + 1,
      field: 'answer.body.client_reference',
    }),
  ]);
});

test('a changed type is an error and a changed charge is a credit error', async () => {
  let at = 0;
  let later = 0;
  const text = edited((lines) => {
    at = answerTo(lines, 'POST', '/v1/messages', firstSend);
    lines[at]!.body.creation_date = 12;
    later = answerTo(lines, 'GET', '/v1/messages/{{id:1}}');
    lines[later]!.body.credit = 3;
  });
  expect(await findingsOf(text)).toEqual([
    expect.objectContaining({ tier: 'error', kind: 'type-changed', line: at + 1, field: 'answer.body.creation_date' }),
    expect.objectContaining({ tier: 'error', kind: 'credit-changed', line: later + 1, field: 'answer.body.credit' }),
  ]);
});

test('a notification the transcript lacks is an error: the provider no longer sends it', async () => {
  const text = edited((lines) => {
    const at = lineOf(lines, deliveredTo('27831234567'));
    lines.splice(at, 1);
  });
  const findings = await findingsOf(text);
  expect(findings).toEqual([
    expect.objectContaining({
      tier: 'error',
      kind: 'webhook-missing',
      field: 'webhook {{id:1}} 27831234567 delivered',
    }),
  ]);
  expect(findings[0]!.message).toMatch(/^line \d+: webhook \{\{id:1\}\} 27831234567 delivered: the emulator posts 1/);
});

test('a notification posted twice by the provider is a duplicate warning at its line', async () => {
  let at = 0;
  const text = edited((lines) => {
    at = lineOf(lines, deliveredTo('27831234568'));
    lines.push({ ...lines[at], id: 'w99', t: lines.at(-1)!.t });
  });
  expect(await findingsOf(text)).toEqual([
    expect.objectContaining({
      tier: 'warn',
      kind: 'webhook-duplicated',
      line: at + 1,
      field: 'webhook {{id:1}} 27831234568 delivered',
    }),
  ]);
});

test('notifications of one leg in another order are a reordering warning; other legs may interleave freely', async () => {
  let delivered = 0;
  const text = edited((lines) => {
    delivered = lineOf(lines, deliveredTo('27831234567'));
    const submitted = lineOf(
      lines,
      (line) =>
        line.type === 'webhook' && line.payload.status === 'submitted' && line.payload.recipient[0] === '27831234567',
    );
    const moved = lines.splice(delivered, 1)[0]!;
    lines.splice(submitted, 0, { ...moved, t: lines[submitted]!.t });
    delivered = submitted;
  });
  expect(await findingsOf(text)).toEqual([
    expect.objectContaining({
      tier: 'warn',
      kind: 'webhook-reordered',
      line: delivered + 1,
      field: 'webhook {{id:1}} 27831234567',
    }),
  ]);
});

test('the rules file ignores fields, normalises values and changes tiers', async () => {
  const text = edited((lines) => {
    const at = answerTo(lines, 'POST', '/v1/messages', firstSend);
    lines[at]!.body.network = 'MTN';
    lines[at]!.body.message = 'Your code is 9999';
    lines[at]!.body.credit = 5;
  });
  const report = await parityDiff(text, {
    rules: `version: 1
ignore: [answer.body.network]
normalise:
  - field: answer.body.message
    pattern: '\\d+'
    replacement: N
tiers:
  credit-changed: warn
`,
  });
  expect(report.findings.map((finding) => [finding.kind, finding.tier])).toEqual([['credit-changed', 'warn']]);
  expect(report.passed).toBe(true);
});

test('JUnit XML fails a test case per error finding, and the HTML page lists every finding', async () => {
  const text = edited((lines) => {
    lines[answerTo(lines, 'GET', '/v1/messages/not-a-message')]!.status = 410;
  });
  const report = await parityDiff(text);
  const xml = parityReportJunit(report, 'session.jsonl');
  expect(xml).toContain('failures="1"');
  expect(xml).toMatch(
    /<testcase classname="parity.session.jsonl" name="line \d+ status answer.status"><failure type="status"/,
  );
  const page = parityReportPage(report, 'session.jsonl');
  expect(page).toContain('<td class="error">error</td>');
  expect(page).toContain('the transcript has 410, the emulator 404');
});

test('a Retry-After the emulator does not give is information, not a failure', async () => {
  let at = 0;
  const text = edited((lines) => {
    at = answerTo(lines, 'GET', '/v1/messages/not-a-message');
    lines[at]!.retryAfter = '30';
  });
  const report = await parityDiff(text);
  expect(report.findings).toEqual([
    expect.objectContaining({ tier: 'info', kind: 'retry-after', line: at + 1, field: 'answer.retryAfter' }),
  ]);
  expect(report.passed).toBe(true);
});

test('a field renamed on every answer is one finding listing each line, not a removed and an added field per line', async () => {
  const renamed: number[] = [];
  const text = edited((lines) =>
    lines.forEach((line, index) => {
      if (line.type !== 'answer' || typeof line.body?.creation_date !== 'string') return;
      line.body.created_at = line.body.creation_date;
      delete line.body.creation_date;
      renamed.push(index + 1);
    }),
  );
  const findings = (await parityDiff(text)).findings;
  expect(renamed.length).toBeGreaterThan(3);
  expect(findings).toEqual([
    expect.objectContaining({
      tier: 'warn',
      kind: 'field-renamed',
      line: renamed[0],
      lines: renamed,
      field: 'answer.body.creation_date',
      recorded: 'created_at',
      emulator: 'creation_date',
    }),
  ]);
  expect(findings[0]!.message).toMatch(/^\d+ lines \(\d+, \d+/);
});

test('a changed status word in webhooks is one changed status (an error), not missing and extra notifications', async () => {
  const changed: number[] = [];
  const text = edited((lines) =>
    lines.forEach((line, index) => {
      if (line.type !== 'webhook' || line.payload.status !== 'delivered') return;
      line.payload.status = 'DELIVRD';
      changed.push(index + 1);
    }),
  );
  const findings = (await parityDiff(text)).findings;
  expect(findings).toEqual([
    expect.objectContaining({
      tier: 'error',
      kind: 'webhook-status-changed',
      lines: changed,
      field: 'webhook.payload.status',
      recorded: 'DELIVRD',
      emulator: 'delivered',
    }),
  ]);
  expect(changed.length).toBeGreaterThan(1);
});

test('a refused send the provider did not charge is a credit finding on the send, not on the later balance read', async () => {
  let send = 0;
  const text = edited((lines) => {
    send = answerTo(lines, 'POST', '/v1/messages', (body) => body?.message === 'bad number');
    const reads = lines.filter(
      (line) => line.type === 'answer' && typeof line.body?.balance === 'number' && lines.indexOf(line) > send,
    );
    for (const read of reads) read.body.balance += 1;
  });
  const findings = (await parityDiff(text)).findings;
  expect(findings).toEqual([
    expect.objectContaining({
      tier: 'error',
      kind: 'credit-changed',
      line: send + 1,
      field: 'answer.charge',
      recorded: 0,
      emulator: 1,
    }),
  ]);
  expect(findings[0]!.message).toMatch(
    /POST \/v1\/messages \(refused\): the emulator charged 1 credit, the provider none/,
  );
});

test('a charge that differs on a send is one finding on the send and its webhooks, and balance reads it explains add none', async () => {
  let send = 0;
  const text = edited((lines) => {
    send = answerTo(lines, 'POST', '/v1/messages', firstSend);
    const id = lines[send]!.body.id;
    for (const line of lines) {
      if (line.type === 'answer' && line.body?.id === id) line.body.credit += 2;
      if (line.type === 'webhook' && line.payload.id === id) line.payload.credit += 2;
      if (line.type === 'answer' && typeof line.body?.balance === 'number' && lines.indexOf(line) > send)
        line.body.balance -= 2;
    }
  });
  const findings = (await parityDiff(text)).findings;
  expect(findings.map(({ kind, line }) => ({ kind, line }))).toEqual([{ kind: 'credit-changed', line: send + 1 }]);
  expect(findings[0]!.lines.length).toBeGreaterThan(2);
});

test('a field rule raises one field of one kind to an error, and a path rule sets a tier on one request path only', async () => {
  const text = edited((lines) => {
    for (const line of lines) if (line.type === 'webhook') delete line.payload.client_reference;
    const at = answerTo(lines, 'GET', '/v1/messages/{{id:1}}');
    lines[at]!.body.network = 'MTN';
  });
  const report = await parityDiff(text, {
    rules: {
      version: 1,
      fields: [
        { field: 'webhook.payload.client_reference', kind: 'field-removed', tier: 'error' },
        { field: 'answer.body.network', path: '/v1/messages/*', tier: 'warn' },
        { field: 'answer.body.network', path: '/sandbox/**', tier: 'error' },
      ],
    },
  });
  expect(report.findings.map(({ kind, field, tier }) => ({ kind, field, tier }))).toEqual([
    { kind: 'field-added', field: 'answer.body.network', tier: 'warn' },
    { kind: 'field-removed', field: 'webhook.payload.client_reference', tier: 'error' },
  ]);
  expect(report.passed).toBe(false);
});

test('a waiver accepts a named finding on named lines with its reason, shown in the text and HTML reports; other lines still count', async () => {
  let first = 0;
  let second = 0;
  const text = edited((lines) => {
    first = answerTo(lines, 'GET', '/v1/messages/not-a-message');
    lines[first]!.status = 410;
    second = answerTo(lines, 'PUT', '/v1/messages/balance');
    lines[second]!.status = 410;
  });
  const reason = 'the provider answers 410 for ids it never issued (ticket 1234)';
  const waive = (lines: number[]) => ({
    version: 1 as const,
    waive: [{ kind: 'status' as const, field: 'answer.status', lines, reason }],
  });
  const report = await parityDiff(text, { rules: waive([first + 1]) });
  expect(report.findings.map(({ line, waived, tier }) => ({ line, waived, tier }))).toEqual([
    { line: first + 1, waived: reason, tier: 'error' },
    { line: second + 1, waived: undefined, tier: 'error' },
  ]);
  expect(report.passed).toBe(false);
  const all = await parityDiff(text, { rules: waive([first + 1, second + 1]) });
  expect(all).toMatchObject({ passed: true, waived: 2, counts: { error: 0, warn: 0, info: 0 } });
  const table = parityReportText(all);
  expect(table).toMatch(
    new RegExp(
      `^waived\\s+${first + 1}\\s+status\\s+line ${first + 1}: .*\\(waived: ${reason.replace(/[()]/g, '\\$&')}\\)$`,
      'm',
    ),
  );
  expect(table).toContain('0 error, 0 warn, 0 info, 2 waived: passed');
  expect(parityReportPage(all)).toContain('<td class="error">waived</td>');
  expect(parityReportPage(all)).toContain('(waived: the provider answers 410 for ids it never issued (ticket 1234))');
});

test('a waiver that covers no finding is listed as unused in the report and its text, and fails nothing', async () => {
  let at = 0;
  const text = edited((lines) => {
    at = answerTo(lines, 'GET', '/v1/messages/not-a-message');
    lines[at]!.status = 410;
  });
  const reason = 'the provider charged 2 until its fix (ticket 99)';
  const rules = {
    version: 1 as const,
    waive: [
      { kind: 'credit-changed' as const, field: '**.credit', lines: [999], reason },
      { kind: 'status' as const, field: 'answer.status', lines: [at + 1], reason: 'in use' },
    ],
  };
  const report = await parityDiff(text, { rules });
  expect(report).toMatchObject({ passed: true, waived: 1 });
  expect(report.unusedWaivers).toEqual([{ kind: 'credit-changed', lines: [999], reason }]);
  expect(parityReportText(report)).toContain(
    `a waiver covers no finding: credit-changed on line 999 (${reason}); remove it, or give the lines the finding is on now`,
  );
  expect((await parityDiff(transcript)).unusedWaivers).toEqual([]);
});

test('a status the provider stopped posting on every leg is one missing-notification finding for all legs', async () => {
  const text = edited((lines) => {
    for (let index = lines.length - 1; index > 0; index--)
      if (lines[index]!.type === 'webhook' && lines[index]!.payload.status === 'submitted') lines.splice(index, 1);
  });
  const findings = await findingsOf(text);
  expect(findings.map(({ kind, field }) => ({ kind, field }))).toEqual([
    { kind: 'webhook-missing', field: 'webhook * submitted' },
  ]);
  expect(findings[0]!.message).toMatch(/^\d+ lines \(/);
});

test("a renamed status field in webhooks is one rename: each leg's notifications are still told apart by their status word", async () => {
  const text = edited((lines) => {
    for (const line of lines)
      if (line.type === 'webhook' && line.payload.type === 'sms') {
        line.payload.state = line.payload.status;
        delete line.payload.status;
      }
  });
  const findings = await findingsOf(text);
  expect(findings.map(({ kind, field }) => ({ kind, field }))).toEqual([
    { kind: 'field-renamed', field: 'webhook.payload.status' },
  ]);
});
