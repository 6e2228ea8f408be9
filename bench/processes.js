// Spawning the measured processes: the server side pinned to one CPU, the load side to another.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export const loadCpu = 0;
export const serverCpu = 1;

/** Pinning needs two CPUs and a working `taskset`; without either, processes share the CPUs. */
export const pinned =
  availableParallelism() >= 2 && spawnSync('taskset', ['-c', String(serverCpu), 'true']).status === 0;

/** Pins this process (every thread) to the load generator's CPU. */
export function pinLoadGenerator() {
  if (pinned) spawnSync('taskset', ['-a', '-cp', String(loadCpu), String(process.pid)], { stdio: 'ignore' });
}

/** Starts `node ...args` on the server CPU; `taskset` execs node, so the child's pid is node's. */
export function spawnServerSide(args, options = {}) {
  const command = pinned ? 'taskset' : process.execPath;
  const argv = pinned ? ['-c', String(serverCpu), process.execPath, ...args] : args;
  return spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'], ...options });
}

const originPattern = /(https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+)/;

/** Resolves with the first `http://127.0.0.1:port` the child prints (a banner or a ready line). */
export function originOf(child) {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk) => {
      output += chunk;
      const match = originPattern.exec(output);
      if (!match) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`bench: process exited (${code}) before listening; output: ${output}`)),
    );
  });
}

/** Starts a server process and waits until it listens. */
export async function startServer(args) {
  const child = spawnServerSide(args);
  return { child, origin: await originOf(child) };
}

export function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** CPU time (user + system) a running process has used, in ms (Linux /proc, 100 ticks a second), else undefined. */
export function cpuTimeOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Resident set size of a running process in bytes (Linux), else undefined. */
export function rssOf(pid) {
  const result = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  const kb = Number(result.stdout.trim());
  return Number.isFinite(kb) && kb > 0 ? kb * 1024 : undefined;
}
