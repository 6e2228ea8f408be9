/** --parent-pid: an emulator started by a test run stops by itself once that run is gone, even killed with SIGKILL. */

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { startEmulator } from '../../src/index.js';
import { parseProcStat, processMark, stillThere } from '../../src/cli/watchParent.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const parentScript = fileURLToPath(new URL('../fixtures/scripts/parentWithEmulator.mjs', import.meta.url));
const zombieScript = fileURLToPath(new URL('../fixtures/scripts/zombieParent.sh', import.meta.url));

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The state letter of a process from /proc (Z: dead, not reaped), or undefined when there is no such process. */
function procState(pid: number): string | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** Running: there, and not a zombie (an emulator that exited is reparented, and its new parent may reap it late). */
function running(pid: number): boolean {
  const state = procState(pid);
  return state !== undefined && state !== 'Z' && state !== 'X';
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

test.each([
  ['exits', 'exit'],
  ['is killed', 'wait'],
])(
  'a parent that %s and is never reaped (a zombie, which still answers kill(pid, 0)) stops the emulator',
  async (_, how) => {
    const readyFile = join(mkdtempSync(join(tmpdir(), 'sms-zombie-')), 'ready.json');
    // The script's own process becomes a `sleep` that never reaps the parent shell it started.
    const reaper = spawn('sh', [zombieScript, process.execPath, bin, readyFile, how], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let pids: number[] = [];
    try {
      let stderr = '';
      reaper.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      pids = await new Promise<number[]>((resolve, reject) => {
        reaper.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim().split(' ').map(Number)));
        reaper.once('exit', (code) => reject(new Error(`the script exited (${code}) first: ${stderr}`)));
      });
      const [parentPid, emulatorPid] = pids;
      if (how === 'wait') process.kill(parentPid as number, 'SIGKILL');
      // The premise: the parent is dead but not reaped, so its id still answers a signal.
      for (let look = 0; look < 150 && procState(parentPid as number) !== 'Z'; look++) await sleep(100);
      expect(procState(parentPid as number)).toBe('Z');
      expect(exists(parentPid as number)).toBe(true);
      // Looked for every 500 ms; 15 s is only the bound of a loaded machine.
      for (let look = 0; look < 150 && running(emulatorPid as number); look++) await sleep(100);
      expect(running(emulatorPid as number)).toBe(false);
      expect(stderr).toContain(`the parent process ${parentPid} (--parent-pid) is gone, stopping.`);
      expect(existsSync(readyFile)).toBe(false);
    } finally {
      // A failed run leaves nothing behind: the emulator, then the parent, then the process that never reaps it.
      for (const pid of [...pids].reverse()) if (running(pid)) process.kill(pid, 'SIGKILL');
      reaper.kill('SIGKILL');
    }
  },
  30_000,
);

test('a process id given to another process since start-up counts as gone: its start time differs', () => {
  const mine = processMark(process.pid);
  expect(mine?.start).toMatch(/^\d+$/);
  expect(stillThere(process.pid, mine as object)).toBe(true);
  expect(stillThere(process.pid, { start: `${Number(mine?.start) + 1}` })).toBe(false);
});

test("a parent that was this process's own is gone once the parent id changes, even where the system tells no more", () => {
  expect(stillThere(process.ppid, { ownParent: true })).toBe(true);
  expect(stillThere(process.pid, {})).toBe(true);
  expect(stillThere(process.pid, { ownParent: true })).toBe(false);
});

test('a process that no longer exists has no mark', () => {
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  expect(processMark(Number(gone.stdout))).toBeUndefined();
});

test('the state and start time are read after the command name, which may hold spaces and parentheses', () => {
  const line = '4242 (a (b) c) Z 1 4242 4242 0 -1 4194560 90 0 0 0 1 0 0 0 20 0 1 0 987654 0 0 18446744073709551615';
  expect(parseProcStat(line)).toEqual({ state: 'Z', start: '987654' });
});

/** Starts the emulator with its standard input a pipe this test holds; resolves once it is ready. */
async function emulatorOnPipe(flags: string[]): Promise<{ child: ReturnType<typeof spawn>; stderr: () => string }> {
  const readyFile = join(mkdtempSync(join(tmpdir(), 'sms-stdin-')), 'ready.json');
  const child = spawn(process.execPath, [bin, '--port', '0', '--ready-file', readyFile, ...flags], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let look = 0; look < 300 && !existsSync(readyFile); look++) await sleep(50);
  expect(existsSync(readyFile), stderr).toBe(true);
  return { child, stderr: () => stderr };
}

test('with --parent-stdin, the emulator stops once the pipe on its standard input closes, saying why', async () => {
  const { child, stderr } = await emulatorOnPipe(['--parent-stdin']);
  try {
    child.stdin?.write('anything written is dropped\n');
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin?.end();
    expect(await exited).toBe(0);
    expect(stderr()).toContain('standard input closed (--parent-stdin): the parent is gone, stopping.');
  } finally {
    child.kill('SIGKILL');
  }
}, 30_000);

test('without --parent-stdin, a standard input that closes does not stop the emulator', async () => {
  const { child } = await emulatorOnPipe([]);
  try {
    child.stdin?.end();
    await sleep(1_200);
    expect(child.exitCode).toBeNull();
    expect(running(child.pid as number)).toBe(true);
  } finally {
    child.kill('SIGKILL');
  }
}, 30_000);
