/** Test helpers about processes: whether one is gone, and waiting until it is. */

import { readFileSync } from 'node:fs';

/** True when no process has this pid, or only its zombie is left (dead, waiting to be reaped). */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    return / Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\)/, ' '));
  } catch {
    return true;
  }
}

/** True when no process is left in the group led by `pid`. */
export function isGroupGone(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Resolves once the process is gone, checking at each turn of the event loop (a process we did not start sends no exit event). */
export async function untilGone(pid: number): Promise<void> {
  while (!isGone(pid)) await new Promise((resolve) => setImmediate(resolve));
}
