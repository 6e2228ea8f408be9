import { spawn } from 'node:child_process';
import { expect, test } from 'vitest';
import { stopProcessGroup } from '../../src/testing/processGroup.js';
import { isGone, isGroupGone, untilGone } from '../support/processes.js';

/** A detached node process that ignores SIGTERM and starts a grandchild that ignores it too; prints both pids. */
function stubbornGroup() {
  const grandchild = `process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`;
  const script = `
    const { spawn } = require('node:child_process');
    process.on('SIGTERM', () => {});
    const inner = spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'ignore' });
    console.log(process.pid + ' ' + inner.pid);
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  const pids = new Promise<number[]>((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim().split(' ').map(Number))),
  );
  return { child, pids };
}

test('a group that ignores SIGTERM is killed after the grace period, grandchildren included', async () => {
  const { child, pids } = stubbornGroup();
  const [leader, grandchild] = await pids;
  await stopProcessGroup(child, 50);
  await untilGone(grandchild as number);
  expect(isGone(leader as number)).toBe(true);
  expect(isGroupGone(leader as number)).toBe(true);
});

test('a process that already exited is stopped at once', async () => {
  const child = spawn(process.execPath, ['-e', ''], { detached: true, stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  await stopProcessGroup(child, 60_000);
  expect(child.exitCode).toBe(0);
});
