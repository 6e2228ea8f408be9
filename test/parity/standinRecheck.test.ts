/**
 * Issue 42's acceptance: an app session recorded through `sms-emulator record --upstream` (the built bin: npm run build
 * first) against the stand-in provider (written from the spec alone, test/fixtures/standin-provider) rechecks clean
 * against an unchanged stand-in, and each of the stand-in's 16 drift kinds is one finding of `parityRecheck`, at the
 * tier the rules give its kind.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { signRequest } from '../../src/domain/signing.js';
import { basicAuthorization } from '../../src/parity/emulatorTranscript.js';
import type { Finding } from '../../src/parity/groupFindings.js';
import { parityRules } from '../../src/parity/parityRules.js';
import { parityRecheck } from '../../src/parity/recheck.js';

const serve = fileURLToPath(new URL('../fixtures/standin-provider/serve.py', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const apiKey = 'pk_standin_acceptance';
const signingSecret = 'standin acceptance secret';
const running: ChildProcess[] = [];

/** Starts the stand-in on a free port (optionally shipping one drift) and answers its base URL. */
async function standIn(drift?: string): Promise<string> {
  const child = spawn(
    'python3',
    [serve, '--port', '0', '--api-key', apiKey, '--signing-secret', signingSecret, '--submit-after', '0.2'] //
      .concat(['--outcome-after', '0.3', '--outcome', '27820000099=undelivered'])
      .concat(drift === undefined ? [] : ['--drift', drift]),
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  running.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`the stand-in exited ${code}: ${out}`)));
  });
}

/** The stand-in's account setting for where it posts webhooks (outside the /v1 API, as an account page would be). */
async function pointWebhooks(provider: string, url: string): Promise<void> {
  const answer = await fetch(`${provider}/standin/account/webhook`, {
    method: 'PUT',
    headers: { authorization: basicAuthorization(apiKey), 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  expect(answer.status).toBe(200);
}

/** The app's webhook receiver: `until` resolves once the provider has posted each of these `id status` pairs. */
function appReceiver(): Promise<{ server: Server; url: string; until: (wanted: string[]) => Promise<void> }> {
  const seen = new Set<string>();
  let heard = (): void => {};
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { id, status } = JSON.parse(body) as { id: string; status: string };
      seen.add(`${id} ${status}`);
      response.writeHead(200).end();
      heard();
    });
  });
  const until = (wanted: string[]): Promise<void> =>
    new Promise((resolve) => {
      heard = () => {
        if (wanted.every((pair) => seen.has(pair))) resolve();
      };
      heard();
    });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, until }),
    ),
  );
}

/** A schedule an hour ahead as the spec writes it: `YYYY-MM-DDTHH:MM` in GMT+2. */
function anHourAhead(): string {
  return new Date(Date.now() + 3_600_000 + 2 * 3_600_000).toISOString().slice(0, 16);
}

/** The app: sends, schedules, edits, deletes, is refused, waits for its messages' outcomes, then reads them back. */
async function appSession(base: string, until: (wanted: string[]) => Promise<void>): Promise<void> {
  const call = async (method: string, path: string, body?: object, signature?: string) => {
    const headers: Record<string, string> = { authorization: basicAuthorization(apiKey) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (signature !== undefined) headers.signature = signature;
    const answer = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: answer.status, body: (await answer.json()) as { id?: string } };
  };
  const signed = (body: Record<string, unknown>) =>
    call('POST', '/v1/messages', body, signRequest(body, signingSecret));
  await call('GET', '/v1/messages/balance');
  const code = {
    recipient: ['27820000001', '27820000002'],
    message: 'Your code is 1234',
    client_reference: 'order-42',
  };
  const first = await signed(code);
  const unicode = await signed({
    recipient: ['27820000003'],
    message: `Привет ${'☃'.repeat(70)}`,
    client_reference: 'u-1',
  });
  const failing = await signed({ recipient: ['27820000099'], message: 'No one home' });
  expect([first.status, unicode.status, failing.status]).toEqual([201, 201, 201]);
  expect((await signed({ recipient: ['0820000001'], message: 'bad number' })).status).toBe(400);
  await call('POST', '/v1/messages', { recipient: ['27820000001'], message: 'forged' }, 'not a signature');
  await signed({ recipient: ['27820000001'] });
  const later = await signed({ recipient: ['27820000004'], message: 'Later', schedule: anHourAhead() });
  const doomed = await signed({ recipient: ['27820000005'], message: 'Never', schedule: anHourAhead() });
  await call('PATCH', `/v1/messages/${later.body.id}`, { message: 'Later, edited' });
  await call('DELETE', `/v1/messages/${doomed.body.id}`);
  await until([`${first.body.id} delivered`, `${unicode.body.id} delivered`, `${failing.body.id} undelivered`]);
  await call('GET', `/v1/messages/${first.body.id}`);
  await call('GET', '/v1/messages?limit=10');
  await call('GET', '/v1/messages/balance');
  await call('GET', '/v1/messages/not-a-message');
}

let transcript = '';

/** `sms-emulator record --upstream` (the built bin) on a free port: its base and webhook URLs once it prints them. */
async function record(
  provider: string,
  out: string,
  relay: string,
): Promise<{ base: string; webhookUrl: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [
    bin,
    'record',
    '--upstream',
    provider,
    '--out',
    out,
    '--port',
    '0',
    '--relay',
    relay,
  ]);
  running.push(child);
  let complaint = '';
  child.stderr!.on('data', (chunk: Buffer) => (complaint += chunk.toString()));
  return new Promise((resolve, reject) => {
    let printed = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const [base, webhookUrl] = [/base URL:\s+(\S+)/.exec(printed)?.[1], /webhook URL:\s+(\S+)/.exec(printed)?.[1]];
      if (base !== undefined && webhookUrl !== undefined) resolve({ base, webhookUrl, child });
    });
    child.once('exit', (code) => reject(new Error(`record exited ${code}: ${printed}${complaint}`)));
  });
}

beforeAll(async () => {
  const provider = await standIn();
  const app = await appReceiver();
  const out = join(mkdtempSync(join(tmpdir(), 'sms-emulator-standin-')), 'session.jsonl');
  const recorder = await record(provider, out, app.url);
  await pointWebhooks(provider, recorder.webhookUrl);
  await appSession(recorder.base, app.until);
  // Every notification has reached the recorder once the app saw the last outcome; the session is over.
  const exited = new Promise((resolve) => recorder.child.once('exit', resolve));
  recorder.child.kill('SIGTERM');
  await exited;
  app.server.close();
  transcript = readFileSync(out, 'utf8');
}, 30_000);

afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGTERM');
});
afterAll(() => {
  for (const child of running.splice(0)) child.kill('SIGTERM');
});

/** The transcript rechecked against a fresh stand-in shipping `drift` (none: unchanged), its webhooks heard. */
async function recheck(drift?: string): Promise<Finding[]> {
  const provider = await standIn(drift);
  const report = await parityRecheck(transcript, {
    upstream: provider,
    apiKey,
    signingSecret,
    // The stand-in moves on its own real clock, later than recorded on a loaded CI machine: the recheck goes at twice
    // the recorded pace, but each read the app made after a notification waits for the stand-in's own (at most 1.5 s
    // past due, the time it also listens past the last request for late and extra ones).
    pace: 2,
    settleMs: 1500,
    webhooks: { port: 0, onListening: (url) => pointWebhooks(provider, url) },
  });
  return report.findings;
}

test('a session recorded against the unchanged stand-in rechecks with no finding at all', async () => {
  const lines = transcript
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string });
  const count = (type: string): number => lines.filter((line) => line.type === type).length;
  expect([count('request'), count('webhook')]).toEqual([15, 6]);
  expect(await recheck()).toEqual([]);
}, 30_000);

const tiers = parityRules(undefined).tiers;

/** Each drift, the one finding's kind, and the field (or fields) it names. */
const drifts: [drift: string, kind: string, field: RegExp][] = [
  ['renamed-field', 'field-renamed', /^answer\.body\.creation_date, webhook\.payload\.creation_date/],
  ['removed-field', 'field-removed', /^answer\.body\.type, webhook\.payload\.type/],
  ['webhook-status-word', 'webhook-status-changed', /^webhook\.payload\.status$/],
  ['renamed-error-code', 'error-code', /^answer\.body\.message$/],
  ['changed-http-status', 'status', /^answer\.status$/],
  ['uncharged-rejected-send', 'credit-changed', /^answer\.body\.balance$/],
  ['ucs2-credit', 'credit-changed', /credit/],
  ['redirect', 'status', /^answer\.status$/],
  ['webhook-no-client-reference', 'field-removed', /^webhook\.payload\.client_reference$/],
  ['changed-time-format', 'value-changed', /creation_date.*schedule|schedule.*creation_date/],
  ['extra-webhook', 'webhook-extra', /^webhook \* pending$/],
  ['error-envelope', 'field-renamed', /^answer\.body\.error$/],
  ['list-order', 'value-changed', /^answer\.body\.list$/],
  ['missing-webhook', 'webhook-missing', /^webhook \* submitted$/],
  ['credit-type', 'type-changed', /credit/],
  ['delete-result', 'value-changed', /^answer\.body\.status$/],
];

test("a recheck names the provider's value now as provider, beside the transcript's as recorded", async () => {
  const findings = await recheck('delete-result');
  expect(findings).toMatchObject([{ kind: 'value-changed', recorded: 'successful', provider: 'deleted' }]);
}, 30_000);

test.each(drifts)(
  'the stand-in drift %s is one %s finding, at the tier the rules give',
  async (drift, kind, field) => {
    const findings = await recheck(drift);
    expect(findings.map((finding) => finding.kind)).toEqual([kind]);
    const [finding] = findings as [Finding];
    expect(finding.tier).toBe(tiers[finding.kind]);
    expect(finding.field).toMatch(field);
    expect(finding.message).not.toContain('the emulator');
    expect(finding).not.toHaveProperty('emulator');
  },
  30_000,
);

test('a refused send the provider no longer charges is found on the balance read that names each refused send before it', async () => {
  const [finding] = (await recheck('uncharged-rejected-send')) as [Finding];
  const sends = transcript
    .trim()
    .split('\n')
    .flatMap((row, index) => {
      const line = JSON.parse(row) as { type: string; status?: number; request?: string };
      return line.type === 'answer' && (line.status ?? 0) >= 400 && index + 1 < finding.line ? [index + 1] : [];
    });
  expect(finding.message).toMatch(/the refused sends in between, one of which the sides charged differently/);
  expect(sends.length).toBeGreaterThan(1);
  for (const line of sends) expect(finding.message).toContain(`at line ${line}`);
}, 30_000);
