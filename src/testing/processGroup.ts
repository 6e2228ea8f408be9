/** Ends a process started detached, with everything it started: SIGTERM to its group, SIGKILL after a grace period. */

import type { ChildProcess } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';

/** Resolves when the child has exited (at once if it already has). */
export function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Signals the whole group the detached child leads; a group already gone is not an error. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Asks the group to stop (SIGTERM), and kills it (SIGKILL) when the leader has not exited after
 * `graceMs`. Resolves once the leader has exited; the group is signalled again at the end so a
 * child that outlived its leader goes too.
 */
export async function stopProcessGroup(child: ChildProcess, graceMs: number): Promise<void> {
  const exited = exitOf(child);
  signalGroup(child, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  if ((await Promise.race([exited, graceOver])) === 'late') signalGroup(child, 'SIGKILL');
  clearTimeout(timer);
  await exited;
  signalGroup(child, 'SIGKILL');
}
