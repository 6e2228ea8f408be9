/** What the CLI tells tools once it listens: addresses and credentials, as the ready file and the JSON banner carry them. */

import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Emulator, EmulatorUrls } from '../emulator.js';
import { batchLimitNote, publicOrigin } from '../options.js';

/** The ready file's content (and the JSON banner's): everything a launcher needs to reach the emulator. */
export interface ReadyInfo {
  name: 'sms-emulator';
  version: string;
  /** The emulator's own process id (signal this one to stop it). */
  pid: number;
  /** `http://127.0.0.1:PORT`; the control API is at `<origin>/_emulator`. */
  origin: string;
  /** Live base URL (the API at `<live>/v1`). */
  live: string;
  /** Sandbox base URL (the API at `<sandbox>/v1`). */
  sandbox: string;
  control: string;
  docs: string;
  port: number;
  apiKey: string;
  signingSecret: string;
  balance: number;
  /** Most recipients per request (BATCH_LIMIT_EXCEEDED above it). */
  batchLimit: number;
  /** Why that limit: the default or the option, and the spec's two numbers. */
  batchLimitNote: string;
  clock: 'realtime' | 'manual';
  speed: number;
  seed: string;
  /** Whether the control API needs `Authorization: Bearer <token>` (the token itself is never written). */
  controlTokenRequired: boolean;
  /** With `publicUrl`: the origin every link (`_links`, webhook payloads, docs) uses; `origin` stays the address listened on. */
  publicUrl?: string;
  /** With TLS: the certificate a client must trust. */
  tls?: ReadyTls;
}

export interface ReadyTls {
  /** SHA-256 fingerprint, as the banner prints it. */
  fingerprint: string;
  /** True for the certificate made at start (`--tls`), false for `--tls-cert`. */
  selfSigned: boolean;
  /** The certificate (PEM), e.g. to write out for `NODE_EXTRA_CA_CERTS` or `curl --cacert`. */
  cert: string;
  /** With `--tls-cert`: the PEM file it was read from. */
  certFile?: string;
}

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
