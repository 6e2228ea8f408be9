/** `parity diff` as the built bin: the replaying emulator's options, an OpenAPI document, and its exit statuses. */

import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { everyOperationSession, sessionTranscript } from '../support/paritySession.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sms-emulator-parity-options-'));
const session = join(dir, 'session.jsonl');

beforeAll(async () => {
  writeFileSync(session, await sessionTranscript(everyOperationSession));
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, 'parity', 'diff', session, ...args],
      { env: { PATH: process.env.PATH ?? '' }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

test('parity diff --option key=value replays with that emulator setting: a session of two-number sends drifts under batchLimit=1', async () => {
  expect((await cli([])).code).toBe(0);
  const strict = await cli(['--option', 'batchLimit=1', '--option', 'pricing=per-segment']);
  expect(strict.code).toBe(1);
  expect(strict.stdout).toMatch(/error\s+\d+\s+status\s+.*the transcript has 201, the emulator 400/);
  expect(strict.stdout).toContain('BATCH_LIMIT_EXCEEDED');
  expect((await cli(['--option', 'batch-limit=500'])).code).toBe(0);
});

test('parity diff --config reads the settings as a YAML object, and --option wins over it', async () => {
  const config = file('replay.yaml', 'batchLimit: 1\nerrorEnvelope: bare\n');
  expect((await cli(['--config', config])).code).toBe(1);
  expect((await cli(['--config', config, '--option', 'batchLimit=2'])).code).toBe(0);
});

test('a bad --option or config is refused with exit status 2, checked as the emulator checks its settings', async () => {
  const notNumber = await cli(['--option', 'batchLimit=many']);
  expect(notNumber.code).toBe(2);
  expect(notNumber.stderr).toMatch(/--option batchLimit=many: invalid options: .*batchLimit/);
  const unknown = await cli(['--option', 'colour=blue']);
  expect(unknown).toMatchObject({ code: 2 });
  expect(unknown.stderr).toContain('give it as key=value with a setting of the emulator');
  const clock = await cli(['--option', 'clock=realtime']);
  expect(clock).toMatchObject({ code: 2 });
  expect(clock.stderr).toContain('a replay always runs on a manual test clock');
  const badConfig = await cli(['--config', file('bad.yaml', 'pricing: free\n')]);
  expect(badConfig.code).toBe(2);
  expect(badConfig.stderr).toMatch(/bad\.yaml: invalid options: .*pricing/);
  expect((await cli(['--config', file('list.yaml', '- 1\n')])).stderr).toContain('is not an object of settings');
});

test('exit status 2 for every input that cannot be read and a report that cannot be written, never 1 (drift)', async () => {
  expect((await cli(['--rules', join(dir, 'none.yaml')])).code).toBe(2);
  expect((await cli(['--rules', file('rules.yaml', 'version: 2\n')])).code).toBe(2);
  expect((await cli(['--openapi', join(dir, 'none.json')])).code).toBe(2);
  expect((await cli(['--openapi', file('not-openapi.json', '{"swagger": 1}')])).stderr).toContain(
    'not an OpenAPI document',
  );
  const unwritable = await cli(['--junit', join(dir, 'no-such-folder', 'parity.xml')]);
  expect(unwritable.code).toBe(2);
  expect(unwritable.stderr).toContain('cannot write');
});

test('parity diff --openapi emulator validates every recorded answer and webhook against the emulator document', async () => {
  const clean = await cli(['--openapi', 'emulator']);
  expect(clean.stdout).toContain('0 error, 0 warn, 0 info: passed');
  expect(clean.code).toBe(0);
});

test('parity recheck of a provider that does not answer at all exits 2 (the check could not run), not 1 (drift)', async () => {
  // A port that was free a moment ago: nothing listens there.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const upstream = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
  const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, 'parity', 'recheck', session, '--upstream', upstream, '--api-key', 'k', '--signing-secret', 's'],
      { env: { PATH: process.env.PATH ?? '' }, timeout: 30_000 },
      (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`cannot recheck at ${upstream}`);
});
