/** Makes, writes and removes the ready file (its shape: domain/readyInfo.ts). */

import { renameSync, rmSync, writeFileSync } from 'node:fs';
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

export function removeReadyFile(path: string): void {
  rmSync(path, { force: true });
}
