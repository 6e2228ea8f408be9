/** --parent-pid: an emulator started by a test run stops by itself once that run is gone, even killed with SIGKILL. */

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { startEmulator } from '../../src/index.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const parentScript = fileURLToPath(new URL('../fixtures/scripts/parentWithEmulator.mjs', import.meta.url));

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `pid` is gone; false when it is still there after `tries` looks 100 ms apart. */
async function goneWithin(pid: number, tries: number): Promise<boolean> {
  for (let look = 0; look < tries; look++) {
    if (!exists(pid)) return true;
    await sleep(100);
  }
  return !exists(pid);
}

test('killing the test run with SIGKILL leaves no emulator behind: it stops by itself, saying why, and removes its ready file', async () => {
  const readyFile = join(mkdtempSync(join(tmpdir(), 'sms-parent-')), 'ready.json');
  const parent = spawn(process.execPath, [parentScript, bin, readyFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  parent.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const emulatorPid = await new Promise<number>((resolve, reject) => {
    parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    parent.once('exit', (code) => reject(new Error(`the parent exited (${code}) first: ${stderr}`)));
  });
  expect(exists(emulatorPid)).toBe(true);
  parent.kill('SIGKILL');
  // "About a second": looked for every 500 ms; 15 s is only the bound of a loaded machine.
  expect(await goneWithin(emulatorPid, 150)).toBe(true);
  expect(existsSync(readyFile)).toBe(false);
  expect(stderr).toContain(`the parent process ${parent.pid} (--parent-pid) is gone, stopping.`);
}, 30_000);

test('an emulator whose parent is still there keeps running', async () => {
  const emulator = await startEmulator();
  try {
    await sleep(1_200);
    expect(exists(emulator.pid)).toBe(true);
    expect((await emulator.health()).status).toBe('ok');
  } finally {
    await emulator.stop();
  }
});

test('startEmulator passes its own pid as --parent-pid', async () => {
  const emulator = await startEmulator();
  try {
    const argv = readFileSync(`/proc/${emulator.pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain(`--parent-pid=${process.pid}`);
  } finally {
    await emulator.stop();
  }
});

test('a --parent-pid that is not a process id is a usage error naming the flag and its variable', () => {
  const result = spawnSync(process.execPath, [bin, '--port', '0', '--parent-pid', 'abc'], { encoding: 'utf8' });
  expect(result.status).toBe(2);
  expect(result.stderr).toMatch(/--parent-pid \(SMS_EMULATOR_PARENT_PID\)/);
});

test('a parent already gone at start stops the emulator at once', () => {
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const result = spawnSync(process.execPath, [bin, '--port', '0', '--parent-pid', gone.stdout], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(result.status).toBe(0);
  expect(result.stderr).toContain(`the parent process ${gone.stdout} (--parent-pid) is gone, stopping.`);
});
