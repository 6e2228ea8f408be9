/** Makes, writes and removes the ready file (its shape: domain/readyInfo.ts). */

import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { ReadyInfo } from '../domain/readyInfo.js';
import type { Emulator, EmulatorUrls } from '../emulator.js';
import { batchLimitNote, publicOrigin } from '../options.js';

export function readyInfo(emulator: Emulator, urls: EmulatorUrls, version: string): ReadyInfo {
  const { options, tls } = emulator;
  const publicUrl = publicOrigin(options);
  return {
    name: 'sms-emulator',
    version,
    pid: process.pid,
    origin: urls.origin,
    live: urls.live,
    sandbox: urls.sandbox,
    control: `${urls.origin}/_emulator`,
    docs: `${urls.origin}/_emulator/docs/`,
    port: urls.port,
    apiKey: options.apiKey,
    signingSecret: options.signingSecret,
    balance: options.balance,
    batchLimit: options.batchLimit,
    batchLimitNote: batchLimitNote(options.batchLimit),
    clock: options.clock,
    speed: options.speed,
    seed: emulator.seed,
    controlTokenRequired: options.controlToken !== undefined,
    ...(publicUrl === undefined ? {} : { publicUrl }),
    ...(tls === undefined
      ? {}
      : { tls: { ...tls, ...(options.tlsCert === undefined ? {} : { certFile: options.tlsCert }) } }),
  };
}

/** Writes the file whole or not at all (a temporary file renamed into place), so a reader never sees half of it. */
export function writeReadyFile(path: string, info: ReadyInfo): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(info, null, 2)}\n`);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new Error(`sms-emulator: cannot write the ready file ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Removes the ready file only while it names this process: two emulators given one path must not delete each other's.
 * The file is first renamed to a name of this process's own, so what is removed is what was read; one that another
 * emulator put in place meanwhile is linked back (a link never replaces a newer file written after it).
 */
export function removeReadyFile(path: string): void {
  if (!namesThisProcess(path)) return;
  const claimed = `${path}.${process.pid}.removing`;
  try {
    renameSync(path, claimed);
  } catch {
    return; // gone already
  }
  try {
    if (!namesThisProcess(claimed)) linkSync(claimed, path);
  } catch {
    // Another ready file took the path since: that one stays.
  } finally {
    rmSync(claimed, { force: true });
  }
}

/** Whether the ready file at `path` names this process (a file unreadable or not ours is left alone). */
function namesThisProcess(path: string): boolean {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown }).pid === process.pid;
  } catch {
    return false;
  }
}
