/** The timeline report: one account's story in virtual-time order, as self-contained HTML and as JSON. */

import { afterEach, expect, test } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWebhookCatcher, type Emulator } from '../../src/index.js';
import { apiKey, call, makeEmulator, scheduleIn, send } from '../support/api.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

async function story(options = {}): Promise<Emulator> {
  const catcher = await createWebhookCatcher();
  catcher.respondWith([500, 200]);
  const emulator = makeEmulator({ webhookUrl: catcher.url, webhookTimeout: '300ms', ...options });
  open.push(catcher, emulator);
  const message = await send(emulator, { recipient: ['27831234567'], message: 'Your code is 1234' });
  await emulator.clock.advance('1m');
  emulator.replies.inject(message.id, { text: 'STOP' });
  await emulator.webhooks.settled();
  return emulator;
}

test('the JSON report lists requests-to-webhooks of one account in virtual-time order, clock moves included', async () => {
  const emulator = await story();
  const report = emulator.report({ format: 'json' });
  expect(report.account).toBe(apiKey);
  const lines = report.entries.map((entry) => `${entry.at.slice(11, 19)} ${entry.kind} ${entry.summary}`);
  expect(lines[0]).toMatch(/^12:00:00 request POST \/v1\/messages → 201 in \d+ ms$/);
  expect(lines[1]).toMatch(/^12:00:00 status .* to 27831234567: pending$/);
  expect(lines[2]).toMatch(
    /^12:00:00 clock clock moved 2026-11-21T12:00:00\+02:00 → 2026-11-21T12:01:00\+02:00 \(manual\) by \{"advance":"1m"\}$/,
  );
  expect(lines.filter((line) => line.includes(' status '))).toHaveLength(3);
  expect(lines.some((line) => /12:01:00 reply reply from 27831234567: "STOP"/.test(line))).toBe(true);
  const tries = report.entries.filter((entry) => entry.kind === 'webhook');
  expect(tries.map((entry) => entry.problem)).toEqual([true, false, false, false]);
  expect(tries[0]?.summary).toMatch(/try 1 to http:.*: HTTP 500 in \d+ ms$/);
  const times = report.entries.map((entry) => Date.parse(entry.at));
  expect(times).toEqual([...times].sort((a, b) => a - b));
});

test('injected faults show in the report of the account they hit', async () => {
  const emulator = makeEmulator({
    scenario: { version: 1, faults: [{ match: { operation: 'balance' }, error: { status: 503 } }] },
  });
  open.push(emulator);
  expect((await call(emulator, 'GET', '/v1/messages/balance')).status).toBe(503);
  const faults = emulator.report({ format: 'json' }).entries.filter((entry) => entry.kind === 'fault');
  expect(faults).toEqual([
    expect.objectContaining({
      environment: 'live',
      summary: 'injected fault on balance: answered INTERNAL_SERVER_ERROR',
      problem: true,
    }),
  ]);
});

test('clock incidents show in the report, marked as problems, at the instant the task was due', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  const later = await send(emulator, { recipient: ['27831234567'], message: 'Later', schedule: scheduleIn(20) });
  emulator.setOutcomeDecider(() => {
    throw new Error('decider bug');
  });
  await emulator.clock.advance('30m');
  const incidents = emulator
    .report({ format: 'json' })
    .entries.filter((entry) => entry.kind === 'clock' && entry.problem);
  expect(incidents).toEqual([
    expect.objectContaining({
      at: '2026-11-21T12:20:00+02:00',
      summary: expect.stringContaining(`clock task "scheduled send" failed: message ${later.id} failed`),
    }),
  ]);
  emulator.reset();
  expect(emulator.report({ format: 'json' }).entries.filter((entry) => entry.kind === 'clock')).toEqual([]);
});

test('GET /_emulator/report answers a self-contained HTML page with the same entries as ?format=json', async () => {
  const emulator = await story();
  const html = await emulator.fetch(new Request(`http://x/_emulator/report?account=${apiKey}`));
  expect(html.headers.get('content-type')).toMatch(/^text\/html/);
  const page = await html.text();
  const json: any = await (
    await emulator.fetch(new Request(`http://x/_emulator/report?account=${apiKey}&format=json`))
  ).json();
  expect(page.match(/<tr class="kind-/g)).toHaveLength(json.entries.length);
  expect(page).not.toMatch(/<link|<script src|<img|url\(/);
  expect(page).toContain("default-src 'none'");
  const embedded = JSON.parse(
    /<script type="application\/json" id="timeline-data">(.*)<\/script>/.exec(page)?.[1] ?? '',
  );
  expect(embedded).toEqual(json);
});

test('the report lists the messages with a cost column, each character that forced UCS-2 marked in the escaped text', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  await send(emulator, { recipient: ['27831234567', '27831234568'], message: '<b>It’s</b> here ☃' });
  await send(emulator, { recipient: ['27831234567'], message: 'Plain & simple' });
  const report = emulator.report({ format: 'json' });
  expect(
    report.messages.map(({ text, credit, encoding, units, segments }) => [text, credit, encoding, units, segments]),
  ).toEqual([
    ['<b>It’s</b> here ☃', 2, 'UCS-2', 18, 1],
    ['Plain & simple', 1, 'GSM-7', 14, 1],
  ]);
  expect(report.messages[0]?.triggers.map((trigger) => [trigger.char, trigger.position, trigger.suggestion])).toEqual([
    ['’', 6, "'"],
    ['☃', 18, null],
  ]);
  const page = emulator.report();
  expect(page).toContain(
    '<td class="text">&lt;b&gt;It<mark title="position 6: &quot;’&quot; U+2019 RIGHT SINGLE QUOTATION MARK, use &quot;&#39;&quot;">’</mark>s&lt;/b&gt; here <mark title="position 18: &quot;☃&quot; U+2603 (no GSM-7 equivalent)">☃</mark></td><td class="cost">2 credits: UCS-2, 18 UTF-16 units, 1 segment × 2 recipients</td>',
  );
  expect(page).toContain(
    '<td class="text">Plain &amp; simple</td><td class="cost">1 credit: GSM-7, 14 septets, 1 segment × 1 recipient</td>',
  );
  expect(page).not.toContain('<b>');
});

test('the report refuses an unknown account, format or query field, and needs the control token when one is set', async () => {
  const emulator = makeEmulator({ controlToken: 'tok' });
  open.push(emulator);
  const get = (query: string, token = 'tok') =>
    emulator.fetch(new Request(`http://x/_emulator/report${query}`, { headers: { authorization: `Bearer ${token}` } }));
  expect((await get('?account=pk_nobody')).status).toBe(404);
  expect(((await (await get('?format=pdf')).json()) as any).message).toBe('CONTROL_INVALID_REQUEST');
  expect((await get('?colour=red')).status).toBe(400);
  expect((await get('', 'nope')).status).toBe(401);
  expect((await get('')).status).toBe(200);
});

test('reportOnExit writes the report when the emulator stops: HTML, or JSON for a .json path', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'sms-report-'));
  for (const name of ['run/timeline.html', 'timeline.json']) {
    const emulator = makeEmulator({ reportOnExit: join(folder, name) });
    await send(emulator, { recipient: ['27831234567'], message: 'bye' });
    await emulator.close();
  }
  expect(await readFile(join(folder, 'run/timeline.html'), 'utf8')).toMatch(
    /^<!doctype html>[\s\S]*27831234567: pending/,
  );
  expect(
    JSON.parse(await readFile(join(folder, 'timeline.json'), 'utf8')).entries.map((entry: any) => entry.kind),
  ).toEqual(['request', 'status']);
});

test('reset forgets the clock moves and faults the report shows', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  await emulator.clock.advance('1h');
  expect(emulator.report({ format: 'json' }).entries).toHaveLength(1);
  emulator.reset();
  expect(emulator.report({ format: 'json' }).entries).toEqual([]);
});

test('text from messages and replies cannot break out of the report page', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  const message = await send(emulator, { recipient: ['27831234567'], message: 'hi' });
  emulator.replies.inject(message.id, { text: '</script><script>alert(1)</script><b>x' });
  const page = emulator.report();
  expect(page).not.toContain('<script>alert');
  expect(page).not.toContain('<b>x');
  expect(page).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
});

test('requests from the request journal show in the report, refused ones marked as problems', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  await send(emulator, { recipient: ['27831234567'], message: 'journaled' });
  expect((await call(emulator, 'POST', '/v1/messages', { body: { recipient: ['27831234567'] } })).status).toBe(400);
  const requests = emulator.report({ format: 'json' }).entries.filter((entry) => entry.kind === 'request');
  expect(requests.map((entry) => [entry.summary.replace(/ in \d+ ms$/, ''), entry.problem])).toEqual([
    ['POST /v1/messages → 201', false],
    ['POST /v1/messages → 400 MESSAGE_MISSING_PARAMETER', true],
  ]);
});

test("the report of an account on a test clock shows that clock's moves and time, not the main clock's or another test clock's", async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  const mine = await emulator.clocks.create({ startTime: '2030-01-01T00:00:00Z' });
  const other = await emulator.clocks.create({ startTime: '2031-01-01T00:00:00Z' });
  emulator.accounts.create({ apiKey: 'pk_mine', clock: mine.id });
  await emulator.clock.advance('1h');
  await emulator.clocks.move(other.id, { advance: '1d' });
  await emulator.clocks.move(mine.id, { advance: '5m' });
  const report = emulator.report({ format: 'json', account: 'pk_mine' });
  expect(report.entries.filter((entry) => entry.kind === 'clock').map((entry) => entry.summary)).toEqual([
    'clock moved 2030-01-01T02:00:00+02:00 → 2030-01-01T02:05:00+02:00 (manual) by {"advance":"5m"}',
  ]);
  expect(report.generatedAt).toBe('2030-01-01T02:05:00+02:00');
});

test('the report names the test clock its account lives on, in its JSON and its page', async () => {
  const emulator = makeEmulator();
  open.push(emulator);
  const mine = emulator.clocks.create({ startTime: '2030-01-01T00:00:00Z' });
  emulator.accounts.create({ apiKey: 'pk_named', clock: mine.id });
  expect(emulator.report({ format: 'json', account: 'pk_named' }).clock).toBe(mine.id);
  expect(emulator.report({ account: 'pk_named' })).toContain(`on test clock <code>${mine.id}</code>`);
  expect(emulator.report({ format: 'json' }).clock).toBeNull();
});
