/** `sms-emulator-testcontainers/vitest`: a vitest globalSetup that starts the emulator's container and hands it to createSmsTest. */

import type { ProvidedEmulator } from 'sms-emulator/vitest';
import { SmsEmulatorContainer } from './smsEmulatorContainer.js';
import { stopOnTermination } from './stopOnTermination.js';

export interface ContainerGlobalSetupOptions {
  /** The container to start (default `new SmsEmulatorContainer()`): another image, a token, variables of its own. */
  container?: SmsEmulatorContainer;
  /**
   * The address the worker's webhook catchers listen on and the emulator posts to (default: the host's address on the
   * container's network, its gateway).
   */
  webhookHost?: string;
}

/**
 * A vitest `globalSetup` like sms-emulator's `smsGlobalSetup`, with the emulator in a container: it starts the container
 * before the first test file, provides its origin and token to every `createSmsTest` fixture (each test still gets a
 * world of its own), and stops it after the last, or has it removed when SIGTERM or SIGHUP ends the run (a CI job cancelled).
 *
 * @example
 * // vitest.config.ts: globalSetup: ['sms-emulator-testcontainers/vitest'] (the default export), or a file of your own:
 * export default smsContainerGlobalSetup({ container: new SmsEmulatorContainer().withEnvironment({ SMS_EMULATOR_SEED: 'ci' }) });
 */
export function smsContainerGlobalSetup(options: ContainerGlobalSetupOptions = {}) {
  return async function setup(project: {
    provide(key: 'smsEmulator', value: ProvidedEmulator): void;
  }): Promise<() => Promise<void>> {
    const started = await (options.container ?? new SmsEmulatorContainer()).start();
    const release = stopOnTermination(started.getId());
    try {
      project.provide('smsEmulator', {
        origin: started.getApiUrl(),
        controlToken: started.getControlToken(),
        // Set through the container's SMS_EMULATOR_* variables: createSmsTest refuses options it cannot apply.
        options: {},
        webhookHost: options.webhookHost ?? (await started.getHostAddress()),
      });
    } catch (error) {
      release();
      await started.stop();
      throw error;
    }
    return async () => {
      release();
      await started.stop();
    };
  };
}

/** The globalSetup with the defaults: `globalSetup: ['sms-emulator-testcontainers/vitest']`. */
export default smsContainerGlobalSetup();
