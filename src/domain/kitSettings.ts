/** The settings every front door shares (the vitest toolkit and the five language kits): defaults, units and the one duration grammar, carried to the kits by the kit contract. */

import { durationHint, durationPattern, durationUnits, maxDurationMs, parseDuration } from './time.js';

/** The start of every error text a front door raises, so a reader can tell whose it is. */
export const kitErrorPrefix = 'sms-emulator: ';

/** One setting a front door reads: its environment variable (if it has one), its default and what it bounds. */
export interface KitSetting {
  readonly env?: string;
  readonly default: string;
  readonly description: string;
}

/** Every duration a front door takes, with its one default. */
export const kitSettings = {
  startTimeout: {
    env: 'SMS_EMULATOR_START_TIMEOUT',
    default: '120s',
    description: 'How long a front door waits for an emulator it starts to write its ready file (wall clock).',
  },
  controlTimeout: {
    default: '60s',
    description: 'How long one control request may take before the front door gives up on it (wall clock).',
  },
  waitWithin: {
    default: '1h',
    description: "How far a wait for a message's status may move the world's clock (emulator time) before it fails.",
  },
} as const satisfies Record<string, KitSetting>;

/** A bare number in a front door's setting counts these units: every kit documented seconds before the grammar was one. */
export const kitBareNumberUnit = 's';

const bareNumber = /^\d+(?:\.\d+)?$/;

/**
 * Milliseconds for a front door's duration setting: the emulator's own grammar (`500ms`, `90s`, `2m`, `1h30m`, `7d`),
 * a bare number counted as seconds, more than zero and at most the emulator's longest duration; undefined otherwise,
 * so `2m` is two minutes in every kit or refused, never read as something else.
 */
export function parseKitDuration(text: string): number | undefined {
  const trimmed = text.trim();
  const ms = parseDuration(bareNumber.test(trimmed) ? `${trimmed}${kitBareNumberUnit}` : trimmed);
  return ms !== undefined && ms > 0 ? ms : undefined;
}

/** What a front door says of a setting it cannot read. */
export function kitDurationProblem(name: string, text: string): string {
  return `${kitErrorPrefix}${name}="${text}" is not a duration: ${durationHint.replace('or milliseconds', `or a number of seconds`)}, more than 0.`;
}

/** The grammar as data, for the kit contract: the pattern, the units and the bounds. */
export const kitDurationGrammar = {
  pattern: durationPattern.source,
  units: durationUnits,
  bareNumberUnit: kitBareNumberUnit,
  minExclusiveMs: 0,
  maxMs: maxDurationMs,
} as const;

/**
 * The container image every Testcontainers module starts (issue 43), carried to the kits by the kit contract so the
 * image name and the variable naming another are one fact in every language (the contract adds the port, the option's
 * default, the health path, the control API's, and the options' variables a module sets). The tag is the one version (package.json's), which `npm run image`
 * gives the image it builds; a module takes another image from `imageEnv` or its own argument.
 */
export const kitContainer = {
  repository: 'localhost/sms-emulator',
  imageEnv: 'SMS_EMULATOR_IMAGE',
} as const;
