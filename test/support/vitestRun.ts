/** Runs a fixture project (under test/fixtures) in a vitest process of its own and answers what vitest reported of each test. */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordedTest } from '../fixtures/vitest-project/recordReporter.js';

export type { RecordedTest };

const vitestBin = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const reporter = fileURLToPath(new URL('../fixtures/vitest-project/recordReporter.ts', import.meta.url));

/** The outcome of one run: every test as the reporter saw it, and what vitest printed (for a failure message). */
export interface VitestRun {
  tests: RecordedTest[];
  output: string;
  code: number | null;
}

/** `vitest run` in `project` (a folder with a vitest.config.ts) with `args`; resolves once it exited. */
export async function runVitest(project: string, args: string[] = []): Promise<VitestRun> {
  const directory = mkdtempSync(join(tmpdir(), 'sms-vitest-run-'));
  const out = join(directory, 'tests.json');
  // The outer run's variables would make the inner vitest believe it is one of its workers.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('VITEST') && name !== 'TEST' && name !== 'NODE_ENV',
    ),
  );
  const child = spawn(
    process.execPath,
    [vitestBin, 'run', '--root', project, `--reporter=${reporter}`, '--reporter=default', ...args],
    {
      cwd: project,
      env: { ...env, SMS_FIXTURE_OUT: out, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    return { tests: JSON.parse(readFileSync(out, 'utf8')) as RecordedTest[], output, code };
  } catch {
    throw new Error(`the fixture project's vitest run (exit ${code}) reported no tests:\n${output}`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The one test named `name` of `project` in `file`. */
export function testOf(run: VitestRun, project: string, file: string, name: string): RecordedTest {
  const found = run.tests.find((test) => test.project === project && test.file === file && test.name === name);
  if (found === undefined) throw new Error(`no test "${name}" of ${file} in project ${project}:\n${run.output}`);
  return found;
}
