/** startEmulator: runs the CLI as its own process (node, not npm), waits for its ready file, and stops it for certain. */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { kitSettings, parseKitDuration } from '../domain/kitSettings.js';
import type { ReadyInfo } from '../domain/readyInfo.js';
import { type EmulatorOptions, type OptionName, envName, flagName, settings } from '../options.js';
import { type RemoteEmulator, connect } from './connect.js';
import { exitOf, signalGroup, stopProcessGroup } from './processGroup.js';

/** The start timeout every front door shares (src/domain/kitSettings.ts). */
const defaultStartTimeoutMs = parseKitDuration(kitSettings.startTimeout.default) ?? 0;

export type { ReadyInfo };

/** Emulator options (port defaults to 0 here, a free one), plus how to run the process. */
export interface StartOptions extends Omit<EmulatorOptions, 'readyFile'> {
  /** Extra environment variables for the process. */
  env?: Record<string, string>;
  /** How long (wall-clock ms) to wait for the process to be ready; default the kit contract's start timeout (120 s). */
  startTimeoutMs?: number;
  /** How long `stop()` waits after SIGTERM before SIGKILL; default 5 000. */
  stopGraceMs?: number;
}

/** A running emulator process, and its control handle (the one `connect()` gives): `clock`, `accounts`, `messages`, `reset`, `waitFor`, `report`, ... */
export interface EmulatorProcess extends RemoteEmulator {
  /** The emulator's own pid (node itself, no npm or shell around it); `kill <pid>` stops it. */
  readonly pid: number;
  /** What the process wrote to its ready file: URLs, port, credentials, seed. */
  readonly info: ReadyInfo;
  /** The control token it was started with, if any. */
  readonly controlToken: string | undefined;
  /** Resolves once the process has exited, however it ended. */
  readonly exited: Promise<void>;
  /** Everything it printed so far (stdout and stderr, the last 64 KB). */
  output(): string;
  /** Ends the process and anything it started: SIGTERM, then SIGKILL after the grace period. Safe to call twice. */
  stop(): Promise<void>;
}

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const outputLimit = 64 * 1024;
/** Groups still running, killed if this process exits without stopping them, so no emulator outlives its test run. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Starts the emulator CLI in its own process group and resolves once it listens.
 *
 * @example
 * const emulator = await startEmulator({ clock: 'manual', seed: 'ci' });
 * // ... emulator.info.live, emulator.info.apiKey ...
 * await emulator.clock.advance('5m');
 * await emulator.stop();
 */
export async function startEmulator(options: StartOptions = {}): Promise<EmulatorProcess> {
  const { env, startTimeoutMs = defaultStartTimeoutMs, stopGraceMs = 5_000, ...emulatorOptions } = options;
  const directory = mkdtempSync(join(tmpdir(), 'sms-emulator-'));
  const readyFile = join(directory, 'ready.json');
  let flags: ProcessSettings;
  try {
    // The emulator stops by itself if this process is killed before it can stop the emulator (SIGKILL).
    flags = processFlags({ port: 0, parentPid: process.pid, ...emulatorOptions }, directory);
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const args = [bin, ...flags.argv, `--ready-file=${readyFile}`];
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, ...flags.env },
  });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-outputLimit);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  track(child);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= stopProcessGroup(child, stopGraceMs).finally(() => {
      running.delete(child);
      rmSync(directory, { recursive: true, force: true });
    }));
  try {
    const info = await waitForReadyFile(child, directory, readyFile, startTimeoutMs, () => output);
    const handle = connect(info.origin, { controlToken: emulatorOptions.controlToken });
    return {
      ...handle,
      pid: info.pid,
      info,
      controlToken: emulatorOptions.controlToken,
      exited: exitOf(child),
      output: () => output,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const orphan of running) signalGroup(orphan, 'SIGKILL');
  });
}

/** How the options reach the process: flags, and the environment twins of the secrets. */
interface ProcessSettings {
  argv: string[];
  env: Record<string, string>;
}

/**
 * CLI flags for the options; scenario objects go to JSON files in `directory`. Secrets (the control token, the signing
 * secrets, the API key) go through the environment instead: any local user can read a process's command line (ps,
 * /proc/<pid>/cmdline), not its environment.
 */
function processFlags(options: EmulatorOptions, directory: string): ProcessSettings {
  const flags: string[] = [];
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    if (!(name in settings)) throw new Error(`sms-emulator: startEmulator: unknown option ${name}.`);
    const flag = flagName(name as OptionName);
    if (name === 'scenario') {
      const sources = Array.isArray(value) ? value : [value];
      sources.forEach((source: unknown, index) => {
        if (typeof source === 'string') return flags.push(`${flag}=${source}`);
        const file = join(directory, `scenario-${index}.json`);
        writeFileSync(file, JSON.stringify(source));
        flags.push(`${flag}=${file}`);
      });
    } else {
      const text = Array.isArray(value) ? value.join(',') : String(value);
      // An empty value stays a flag, so the process refuses it by name (an empty variable would count as not set).
      if (settings[name as OptionName].secret && text !== '') env[envName(name as OptionName)] = text;
      else flags.push(`${flag}=${text}`);
    }
  }
  return { argv: flags, env };
}

/** Resolves with the ready file's content once the process has written it; rejects if it exits first or takes too long. */
function waitForReadyFile(
  child: ChildProcess,
  directory: string,
  readyFile: string,
  timeoutMs: number,
  output: () => string,
): Promise<ReadyInfo> {
  return new Promise((resolve, reject) => {
    const watcher = watch(directory);
    const finish = (error: Error | undefined, info?: ReadyInfo): void => {
      watcher.close();
      clearTimeout(timer);
      child.off('exit', exited);
      if (error) reject(error);
      else resolve(info as ReadyInfo);
    };
    const check = (): void => {
      let text: string;
      try {
        text = readFileSync(readyFile, 'utf8');
      } catch {
        return; // not there yet: the file is renamed into place whole, so once it exists it is complete
      }
      finish(undefined, JSON.parse(text) as ReadyInfo);
    };
    const exited = (code: number | null, signal: string | null): void =>
      finish(
        new Error(
          `sms-emulator: the emulator process exited (${signal ?? `code ${code}`}) before it was ready:\n${output()}`,
        ),
      );
    const timer = setTimeout(
      () => finish(new Error(`sms-emulator: the emulator process was not ready within ${timeoutMs} ms:\n${output()}`)),
      timeoutMs,
    );
    watcher.on('change', check);
    watcher.on('error', (error) => finish(error));
    child.once('exit', exited);
    check();
  });
}
