/**
 * watchParent: ends the emulator once the process that started it is gone (`--parent-pid`). A test run that is
 * killed (SIGKILL, a CI job cancelled) cannot stop what it started; the emulator notices by itself instead. Gone means
 * no such process, a process that died and was not reaped yet (a zombie still answers `kill(pid, 0)`), or another
 * process that was given the same id since (its start time differs from the one read at start-up). Where there is no
 * /proc (macOS, Windows), a parent that was the emulator's own is also gone once the emulator's parent id changes: the
 * system hands the children of a process that exits to another at once, reaped or not.
 */

import { existsSync, readFileSync } from 'node:fs';

/** How often the parent is looked for (wall-clock ms): noticed within a second after it is gone. */
const interval = 500;

/** Whether this system has a Linux-style /proc (where a process's state and start time can be read without a child). */
const hasProc = existsSync('/proc/self/stat');

/** A process as first seen: its start time (clock ticks after boot, from /proc) when the system tells it, and whether it was this process's own parent. */
export interface ProcessMark {
  readonly start?: string;
  readonly ownParent?: boolean;
}

/**
 * The state letter and start time of a /proc/<pid>/stat line. The command name (field 2) is in parentheses and may
 * hold spaces and parentheses itself, so fields are counted from its last `)`: the state is field 3, the start time 22.
 */
export function parseProcStat(text: string): { state: string; start: string } | undefined {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state] = fields;
  const start = fields[19];
  return state === undefined || start === undefined || state === '' || start === '' ? undefined : { state, start };
}

/** Whether a process with this id exists (signal 0 tests without sending anything; EPERM: it exists, not ours). */
function answersSignal(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process with this id as it is now; undefined when there is none, or it is dead (state Z or X) and only not yet reaped. */
export function processMark(pid: number): ProcessMark | undefined {
  if (!hasProc) return answersSignal(pid) ? {} : undefined;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ESRCH')
      return undefined;
    // /proc refused for another reason (a hardened mount): the signal still tells whether the id exists.
    return answersSignal(pid) ? {} : undefined;
  }
  const stat = parseProcStat(text);
  if (stat === undefined) return answersSignal(pid) ? {} : undefined;
  return stat.state === 'Z' || stat.state === 'X' ? undefined : { start: stat.start };
}

/**
 * Whether the process first seen as `first` is still there: the id is alive and, where a start time is known, the
 * same one; and when it was this process's parent, it still is (`process.ppid` is read afresh each time).
 */
export function stillThere(pid: number, first: ProcessMark): boolean {
  if (first.ownParent === true && process.ppid !== pid) return false;
  const now = processMark(pid);
  if (now === undefined) return false;
  return first.start === undefined || now.start === undefined || now.start === first.start;
}

/** Calls `gone` once, as soon as `pid` is gone (or reused); the poll holds no reference that keeps the process alive. */
export function watchParent(pid: number, gone: () => void): void {
  const seen = processMark(pid);
  if (seen === undefined) return gone();
  const first = { ...seen, ownParent: process.ppid === pid };
  const timer = setInterval(() => {
    if (stillThere(pid, first)) return;
    clearInterval(timer);
    gone();
  }, interval);
  timer.unref();
}
