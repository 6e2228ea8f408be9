/** containerSettings: the image, port, health path and variable names every Testcontainers module takes from the kit contract. */

import contract from 'sms-emulator/test-vectors/kit-contract.json' with { type: 'json' };

/** The contract's `container` section (test-vectors/kit-contract.json, shipped by the sms-emulator package). */
export const containerSettings = contract.container;

/** Where the control API and the sandbox live on the emulator's origin, from the same contract. */
export const emulatorPaths = { control: contract.paths.control, sandbox: contract.paths.base.sandbox };

/** The images no registry has: `npm run image` tags its image in this repository's registry, so it is never pulled. */
export const localRegistry = 'localhost/';

/** The image a container starts when none is given: `SMS_EMULATOR_IMAGE` when set and not empty, else the contract's. */
export function defaultImage(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env[containerSettings.imageEnv];
  return chosen === undefined || chosen === '' ? containerSettings.image : chosen;
}

const grammar = contract.settings.durationGrammar;
const units: Record<string, number> = grammar.units;

/**
 * How long a container may take to answer its health path, in ms: `SMS_EMULATOR_START_TIMEOUT` read with the kits' one
 * duration grammar (`2m`, `90s`, a bare number of seconds), else the contract's start timeout (120 s), as every kit
 * waits for an emulator it starts; anything else is an error naming the variable.
 */
export function startTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const { env: name, ms: fallback } = contract.settings.startTimeout;
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const trimmed = text.trim();
  let ms = 0;
  if (new RegExp(grammar.pattern).test(trimmed)) {
    const parts = /^\d+(?:\.\d+)?$/.test(trimmed) ? trimmed + grammar.bareNumberUnit : trimmed;
    for (const [, amount, unit] of parts.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g))
      ms += Number(amount) * (units[unit ?? ''] ?? Number.NaN);
  }
  const rounded = Math.round(ms);
  if (!(rounded > grammar.minExclusiveMs && rounded <= grammar.maxMs))
    throw new Error(grammar.problem.replace('{name}', name).replace('{text}', text));
  return rounded;
}

/**
 * Refuses a control token an HTTP header cannot carry as it is (empty, spaces, control or non-ASCII characters): the
 * error says why without the token, which is a secret and would otherwise surface in a header error after the start.
 */
export function checkControlToken(token: string): string {
  if (!/^[\x21-\x7e]+$/.test(token))
    throw new Error(
      `sms-emulator-testcontainers: a control token is one or more printable ASCII characters without spaces (it is sent as "Authorization: Bearer <token>"); the one given ${token === '' ? 'is empty' : `has ${token.length} characters, some of them not such (the token is not shown)`}.`,
    );
  return token;
}
