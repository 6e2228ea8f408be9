/**
 * watchParent: ends the emulator once the process that started it is gone (`--parent-pid`). A test run that is
 * killed (SIGKILL, a CI job cancelled) cannot stop what it started; the emulator notices by itself instead.
 */

/** How often the parent is looked for (wall-clock ms): "within about a second" after it is gone. */
const interval = 500;

/** Whether a process with this id exists (signal 0 tests without sending anything; EPERM: it exists, not ours). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Calls `gone` once, as soon as `pid` no longer exists; the poll holds no reference that keeps the process alive. */
export function watchParent(pid: number, gone: () => void): void {
  if (!alive(pid)) return gone();
  const timer = setInterval(() => {
    if (alive(pid)) return;
    clearInterval(timer);
    gone();
  }, interval);
  timer.unref();
}
