/** containerSettings: the image, port, health path and variable names every Testcontainers module takes from the kit contract. */

import contract from 'sms-emulator/test-vectors/kit-contract.json' with { type: 'json' };

/** The contract's `container` section (test-vectors/kit-contract.json, shipped by the sms-emulator package). */
export const containerSettings = contract.container;

/** Where the control API and the sandbox live on the emulator's origin, from the same contract. */
export const emulatorPaths = { control: contract.paths.control, sandbox: contract.paths.base.sandbox };

/** The image a container starts when none is given: `SMS_EMULATOR_IMAGE` when set and not empty, else the contract's. */
export function defaultImage(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env[containerSettings.imageEnv];
  return chosen === undefined || chosen === '' ? containerSettings.image : chosen;
}
