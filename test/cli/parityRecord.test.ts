/** `sms-emulator record`, `parity scenario` and `parity recheck`, run as the built bin against emulators on port 0. */

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { parse } from 'yaml';
import type { Emulator } from '../../src/index.js';
import { emulatorTranscript } from '../../src/parity/emulatorTranscript.js';
import { apiKey, basic, makeEmulator, signingSecret } from '../support/api.js';
import { everyOperationSession, inProcess } from '../support/paritySession.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sms-emulator-parity-cli-'));
const started: Emulator[] = [];
let child: ChildProcess | undefined;

afterEach(async () => {
  if (child?.exitCode === null) child.kill('SIGTERM');
  child = undefined;
  await Promise.all(started.splice(0).map((emulator) => emulator.close()));
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function upstream(): Promise<{ emulator: Emulator; origin: string }> {
  const emulator = makeEmulator();
  started.push(emulator);
  return { emulator, origin: (await emulator.listen({ port: 0 })).origin };
}

test('record --upstream --out --port 0 prints its addresses, records what passes through and completes the file on SIGTERM', async () => {
  const { origin } = await upstream();
  const out = join(dir, 'recorded.jsonl');
  child = spawn(process.execPath, [bin, 'record', '--upstream', origin, '--out', out, '--port', '0']);
  let stdout = '';
  const base = await new Promise<string>((resolve, reject) => {
    child!.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /base URL:\s+(http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1] as string);
    });
    child!.once('exit', (code) => reject(new Error(`record exited ${code}: ${stdout}`)));
  });
  expect(stdout).toMatch(/webhook URL: http:\/\/127\.0\.0\.1:\d+\/_record\/webhook/);
  const answer = await fetch(`${base}/v1/messages/balance`, { headers: { authorization: basic(apiKey) } });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toMatchObject({ balance: 1000 });
  const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(stdout).toMatch(/SIGTERM received; wrote 3 events to .*recorded\.jsonl/);
  const lines = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((row) => JSON.parse(row) as { type: string });
  expect(lines.map((line) => line.type)).toEqual(['header', 'account', 'request', 'answer']);
  const diff = await cli(['parity', 'diff', out]);
  expect(diff).toMatchObject({ code: 0 });
  expect(diff.stdout).toContain('0 error, 0 warn');
});

test('record refuses a missing --upstream or --out, and a bad URL, with exit status 2', async () => {
  expect((await cli(['record', '--out', 'x.jsonl'])).stderr).toContain('record needs --upstream <base-url>');
  expect((await cli(['record', '--upstream', 'http://127.0.0.1:1'])).stderr).toContain('record needs --out <file>');
  const bad = await cli(['record', '--upstream', 'nope', '--out', 'x.jsonl']);
  expect(bad).toMatchObject({ code: 2 });
  expect(bad.stderr).toContain('--upstream "nope" is not a URL');
  expect((await cli(['record', '--help'])).stdout).toContain(
    'Usage: sms-emulator record --upstream <base-url> --out <file>',
  );
});

test('parity scenario writes YAML that loads and tells the story of each leg; a bad log row is named with exit status 2', async () => {
  const log = fileURLToPath(new URL('../fixtures/parity/incident.csv', import.meta.url));
  const run = await cli(['parity', 'scenario', log]);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(run.stdout).toContain(
    '#   27831234569 (m3), sent at +0 ms: submitted after 1000 ms, undelivered after 29000 ms',
  );
  const scenario = parse(run.stdout) as { rules: unknown[]; webhooks: { behaviour: string }[] };
  expect(scenario.webhooks.map((entry) => entry.behaviour)).toEqual(['duplicate', 'late', 'reorder', 'late']);
  // The file loads as an emulator's scenario.
  const { emulator } = await upstream();
  emulator.scenario.set(run.stdout);
  expect(emulator.scenario.get().rules).toHaveLength(3);
  const bad = join(dir, 'bad.csv');
  writeFileSync(bad, 'id,recipient,status,time\nm1,27831234567,sent-ish,2026-11-21T10:00:00Z\n');
  const refused = await cli(['parity', 'scenario', bad]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/bad\.csv: DELIVERY_LOG_INVALID: row 1, column "status": "sent-ish" is not a status/);
  // The scenario names the log it was made from, never by the absolute path it was given.
  expect(run.stdout).toContain('# Written by sms-emulator parity scenario from incident.csv.');
  expect(run.stdout).not.toContain(dirname(log));
});

test('parity scenario reads a time without its offset only with --timezone, and leaves out or with --strict refuses a number the API refuses', async () => {
  const log = join(dir, 'smpp.csv');
  writeFileSync(
    log,
    'Message ID;MSISDN;Stat;Done Date\nm1;+27831234567;ENROUTE;2026-11-21 12:00:01\nm1;+27831234567;DELIVRD;2026-11-21 12:00:05\nm2;+447911123456;DELIVRD;2026-11-21 12:00:04\n',
  );
  const noZone = await cli(['parity', 'scenario', log]);
  expect(noZone.code).toBe(2);
  expect(noZone.stderr).toContain(
    'smpp.csv: DELIVERY_LOG_INVALID: row 1, column "Done Date": "2026-11-21 12:00:01" has no UTC offset',
  );
  const zoned = await cli(['parity', 'scenario', log, '--timezone', 'Africa/Johannesburg']);
  expect(zoned.code).toBe(0);
  expect(zoned.stderr).toBe(
    `sms-emulator: warning: ${log}: skipped 1 row(s) whose recipient is not a number the API takes (27 followed by nine digits): rows 3; --strict refuses the log instead\n`,
  );
  // The zone reaches the reader: the log reads, each leg's story in the YAML's comment, the warning after it.
  expect(zoned.stdout).toContain(
    '#   27831234567 (m1), sent at +0 ms: submitted after 1000 ms, delivered after 4000 ms\n# warning: skipped 1 row(s)',
  );
  const strict = await cli(['parity', 'scenario', log, '--timezone', 'Africa/Johannesburg', '--strict']);
  expect(strict.code).toBe(2);
  expect(strict.stderr).toContain('row 3, column "MSISDN": "447911123456" is not a number the API takes');
});

test('parity recheck against an unchanged provider finds nothing, and a provider now failing a request is an error', async () => {
  const recorded = makeEmulator();
  await everyOperationSession(inProcess(recorded));
  const file = join(dir, 'recheck.jsonl');
  writeFileSync(file, await emulatorTranscript(recorded));
  await recorded.close();
  const provider = await upstream();
  const args = [
    'parity',
    'recheck',
    file,
    '--upstream',
    provider.origin,
    '--api-key',
    apiKey,
    '--signing-secret',
    signingSecret,
    '--pace',
    '100',
  ];
  const same = await cli(args);
  expect(same.stderr).toBe('');
  expect(same.stdout).toContain('0 error, 0 warn');
  expect(same.code).toBe(0);
  // The provider now fails balance reads: one cause, one error listing each line the transcript reads it at.
  provider.emulator.scenario.set({ version: 1, faults: [{ match: { operation: 'balance' }, error: { status: 503 } }] });
  const changed = await cli([...args, '--json']);
  expect(changed.code).toBe(1);
  const report = JSON.parse(changed.stdout) as { findings: { kind: string; field: string; lines: number[] }[] };
  const statuses = report.findings.filter((finding) => finding.kind === 'status');
  expect(statuses.map((finding) => [finding.field, finding.lines.length])).toEqual([['answer.status', 2]]);
  expect((await cli(['parity', 'recheck', file])).stderr).toContain('parity recheck needs --upstream <url>');
});
