/** The examples for other languages, run as a user runs them: the built bin started with --ready-file, then the script. */

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const running: ChildProcess[] = [];

afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
});

/** Starts the built bin on port 0 with a manual clock; answers the ready file's path (the scripts wait for it). */
function startWithReadyFile(): string {
  const ready = join(mkdtempSync(join(tmpdir(), 'sms-examples-')), 'ready.json');
  running.push(
    spawn(
      process.execPath,
      [join(root, 'bin/sms-emulator.js'), '--port', '0', '--clock', 'manual', '--ready-file', ready],
      { stdio: 'ignore' },
    ),
  );
  return ready;
}

function run(
  file: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: root, env: { ...process.env, ...env }, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test("examples/python: the app signs with RFC 3986 encoding and its tests pass with the pytest kit's sms fixture", async () => {
  // The kit from the checkout (not installed): its plugin named on the command line, the emulator from the built bin.
  const result = await run(
    'python3',
    // no:sms_emulator first: where the kit was also installed (an .egg-info beside its sources), its entry point would register it twice.
    [
      '-m',
      'pytest',
      '-q',
      '-p',
      'no:cacheprovider',
      '-p',
      'no:sms_emulator',
      '-p',
      'pytest_sms_emulator.plugin',
      'examples/python',
    ],
    {
      PYTHONPATH: join(root, 'kits/python/src'),
      SMS_EMULATOR_COMMAND: `${process.execPath} ${join(root, 'bin/sms-emulator.js')}`,
    },
  );
  expect(result.stderr).toBe('');
  expect(result.code, result.stdout).toBe(0);
  expect(result.stdout).toMatch(/3 passed/);
});

test('examples/shell sends with curl (signed by openssl) and with the CLI, moves the clock with the CLI, sees both delivered', async () => {
  const result = await run('bash', ['examples/shell/send-and-deliver.sh', startWithReadyFile()], {
    SMS_EMULATOR_BIN: `${process.execPath} bin/sms-emulator.js`,
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/^both messages delivered: \S+ \S+\n$/);
});
