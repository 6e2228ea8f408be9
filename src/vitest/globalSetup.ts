/** smsGlobalSetup: a vitest globalSetup that starts one emulator process for every test file and stops it at the end. */

import type { EmulatorOptions } from '../options.js';
import { type StartOptions, startEmulator } from '../testing/startEmulator.js';

/** What the globalSetup hands to the test files (through vitest's `provide`/`inject`). */
export interface ProvidedEmulator {
  origin: string;
  controlToken: string | null;
  /** The emulator options it was started with: `createSmsTest` refuses others, which could not apply to this process. */
  options: EmulatorOptions;
  /**
   * The address each worker's webhook catcher listens on and names in the accounts' webhook URLs (default `127.0.0.1`):
   * an emulator in a container cannot reach the host's loopback, so a globalSetup that starts one provides the address
   * of the host on the container's network (its gateway).
   */
  webhookHost?: string;
}

declare module 'vitest' {
  interface ProvidedContext {
    /** Set by `smsGlobalSetup`: the emulator process every `createSmsTest` file connects to. */
    smsEmulator?: ProvidedEmulator;
  }
}

/**
 * A vitest `globalSetup`: starts the emulator CLI as a process (see `startEmulator`) before any test
 * file runs and stops it after the last. `createSmsTest` fixtures then connect to it instead of
 * embedding their own emulator, so every file shares one.
 *
 * @example
 * // test/emulatorProcess.ts, listed in vitest.config.ts as test.globalSetup
 * export default smsGlobalSetup({ clock: 'manual' });
 */
export function smsGlobalSetup(options: StartOptions = {}) {
  return async function setup(project: {
    provide(key: 'smsEmulator', value: ProvidedEmulator): void;
  }): Promise<() => Promise<void>> {
    const emulator = await startEmulator(options);
    const { env: _env, startTimeoutMs: _start, stopGraceMs: _stop, ...emulatorOptions } = options;
    project.provide('smsEmulator', {
      origin: emulator.info.origin,
      controlToken: emulator.controlToken ?? null,
      options: emulatorOptions,
    });
    return () => emulator.stop();
  };
}
