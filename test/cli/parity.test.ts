/** `sms-emulator transcript` and `sms-emulator parity diff`, run as the built bin against an emulator on port 0. */

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { makeEmulator } from '../support/api.js';
import { everyOperationSession, inProcess } from '../support/paritySession.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sms-emulator-parity-'));
let emulator: Emulator;
let origin: string;

beforeAll(async () => {
  emulator = makeEmulator();
  origin = (await emulator.listen({ port: 0 })).origin;
  await everyOperationSession(inProcess(emulator));
});

afterAll(async () => {
  await emulator.close();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { PATH: process.env.PATH ?? '' }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test('transcript --url prints the running emulator session as JSON Lines starting with the header', async () => {
  const run = await cli(['transcript', '--url', origin]);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  const [first, ...rest] = run.stdout.trim().split('\n');
  expect(JSON.parse(first!)).toMatchObject({ version: 1, type: 'header', source: 'emulator', timeZone: '+02:00' });
  expect(rest.map((row) => (JSON.parse(row) as { type: string }).type)).toContain('webhook');
});

test('transcript --out writes the file, and parity diff of it finds no difference and exits 0', async () => {
  const file = join(dir, 'session.jsonl');
  const written = await cli(['transcript', '--url', origin, '--out', file]);
  expect(written.code).toBe(0);
  expect(written.stderr).toMatch(/wrote \d+ lines to .*session\.jsonl/);
  const junit = join(dir, 'parity.xml');
  const html = join(dir, 'parity.html');
  const run = await cli(['parity', 'diff', file, '--junit', junit, '--html', html]);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  expect(run.stdout).toContain('no differences');
  expect(run.stdout).toContain('0 error, 0 warn, 0 info: passed');
  expect(readFileSync(junit, 'utf8')).toContain('failures="0"');
  expect(readFileSync(html, 'utf8')).toContain('passed: 0 error, 0 warn, 0 info');
});

test('parity diff exits 1 on an error finding and prints it with its line; --json gives the report', async () => {
  const text = (await cli(['transcript', '--url', origin])).stdout;
  const edited = text.replace('"status":404', '"status":410');
  const drifted = join(dir, 'drifted.jsonl');
  writeFileSync(drifted, edited);
  const run = await cli(['parity', 'diff', drifted]);
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(
    /error\s+\d+\s+status\s+line \d+: answer\.status: GET \/v1\/messages\/not-a-message: the transcript has 410, the emulator 404/,
  );
  const json = await cli(['parity', 'diff', drifted, '--json']);
  expect(JSON.parse(json.stdout)).toMatchObject({ passed: false, counts: { error: 1, warn: 0 } });
});

test('parity diff names a bad transcript line, an unknown flag and a missing file with exit status 2', async () => {
  const bad = join(dir, 'bad.jsonl');
  writeFileSync(
    bad,
    '{"version":1,"type":"header","source":"edited","startTime":"2026-11-21T10:00:00Z","timeZone":"Z"}\n{"t":0}\n',
  );
  const run = await cli(['parity', 'diff', bad]);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/bad\.jsonl line 2: type: .*\nRun sms-emulator parity diff --help for its arguments\./);
  expect((await cli(['parity', 'diff', bad, '--colour'])).stderr).toContain('unknown flag --colour for parity diff');
  expect((await cli(['parity', 'diff', join(dir, 'none.jsonl')])).stderr).toContain('cannot read the transcript');
  expect((await cli(['parity', 'frobnicate'])).stderr).toContain(
    'unknown action "frobnicate" of parity; its actions: diff',
  );
});

test('parity diff of a malformed line or a 100,000-deep body exits 2 naming the file and line, never 1 or a stack overflow', async () => {
  const head = '{"version":1,"type":"header","source":"edited","startTime":"2026-11-21T10:00:00Z","timeZone":"Z"}';
  const deep = join(dir, 'deep.jsonl');
  const body = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  writeFileSync(
    deep,
    `${head}\n{"t":0,"type":"request","id":"r1","method":"POST","path":"/v1/messages","environment":"live","headers":{},"body":${body}}\n`,
  );
  const refused = await cli(['parity', 'diff', deep]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/deep\.jsonl line 2: nested deeper than 512 levels/);
  expect(refused.stderr).not.toContain('call stack');
  const malformed = join(dir, 'malformed.jsonl');
  writeFileSync(malformed, `${head}\n{"t":0,"type":"request",\n`);
  const broken = await cli(['parity', 'diff', malformed]);
  expect(broken.code).toBe(2);
  expect(broken.stderr).toMatch(/malformed\.jsonl line 2: not JSON/);
});

test('parity --help and parity diff --help explain the actions and flags', async () => {
  const group = await cli(['parity', '--help']);
  expect(group).toMatchObject({ code: 0 });
  expect(group.stdout).toContain('sms-emulator parity diff <transcript>');
  const diff = await cli(['parity', 'diff', '--help']);
  expect(diff.stdout).toContain('--junit <file>');
  const transcript = await cli(['transcript', '--help']);
  expect(transcript.stdout).toContain('Usage: sms-emulator transcript');
});
