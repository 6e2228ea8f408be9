/** Reads CLI flags and their environment twins into emulator options; every bad flag is a clear error. */

import type { z } from 'zod';
import {
  type EmulatorOptions,
  type OptionName,
  commandSettings,
  envName,
  flagName,
  readSettingText,
  settings,
} from '../options.js';
import { isHelpFlag } from './commandLine.js';

export interface CliRequest {
  help: boolean;
  version: boolean;
  options: EmulatorOptions;
  /** `SMS_EMULATOR_*` variables that name no setting (misspelled?): reported, not fatal. */
  warnings: string[];
}

export const cliSettings = (Object.keys(settings) as OptionName[]).filter((name) => settings[name].cli);
const commandNames = Object.keys(commandSettings) as (keyof typeof commandSettings)[];
const byFlag = new Map(cliSettings.map((name) => [flagName(name), name]));

export class CliError extends Error {}

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliRequest {
  const values: Partial<Record<OptionName, unknown>> = {};
  for (const name of cliSettings) {
    const text = env[envName(name)];
    if (text !== undefined && text !== '') values[name] = checked(name, readSettingText(name, text));
  }
  const known = new Set([...cliSettings, ...commandNames].map(envName));
  const warnings = Object.keys(env)
    .filter((variable) => variable.startsWith('SMS_EMULATOR_') && !known.has(variable))
    .map(
      (variable) =>
        `${variable} is not a setting of sms-emulator and is ignored (see --help for the variables it reads)`,
    );
  const flagged = new Set<OptionName>();
  let help = false;
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (isHelpFlag(arg)) help = true;
    else if (arg === '--version' || arg === '-v') version = true;
    else if (arg.startsWith('--')) i = readFlag(argv, i, values, flagged);
    else throw new CliError(`unexpected argument "${arg}"; flags start with -- (see --help)`);
  }
  return { help, version, options: values as EmulatorOptions, warnings };
}

/**
 * A value checked against its setting; a bad one is reported under its flag and its environment variable, whichever
 * gave it (an item of a list by its place: `item 2`).
 */
function checked(name: OptionName, value: unknown): unknown {
  const result = (settings[name].schema as z.ZodType).safeParse(value);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${typeof issue.path[0] === 'number' ? `item ${issue.path[0] + 1}: ` : ''}${issue.message}`,
    );
    throw new CliError(`${flagName(name)} (${envName(name)}): ${problems.join('; ')}`);
  }
  return value;
}

/** Reads one flag at argv[i]; returns the index of the last argument it used. A repeated list flag adds to the list. */
function readFlag(
  argv: readonly string[],
  i: number,
  values: Partial<Record<OptionName, unknown>>,
  flagged: Set<OptionName>,
): number {
  const arg = argv[i] as string;
  const equals = arg.indexOf('=');
  const flag = equals < 0 ? arg : arg.slice(0, equals);
  const negated = flag.startsWith('--no-') ? byFlag.get(`--${flag.slice(5)}`) : undefined;
  if (negated && settings[negated].kind === 'boolean' && equals < 0) {
    values[negated] = false;
    return i;
  }
  const name = byFlag.get(flag);
  if (!name) throw new CliError(`unknown flag ${flag} (see --help)`);
  const set = (text: string): void => {
    const value = checked(name, readSettingText(name, text));
    const previous = values[name];
    values[name] =
      settings[name].kind === 'list' && flagged.has(name) && Array.isArray(previous)
        ? [...previous, ...(value as unknown[])]
        : value;
    flagged.add(name);
  };
  if (equals >= 0) {
    set(arg.slice(equals + 1));
    return i;
  }
  if (settings[name].kind === 'boolean') {
    values[name] = true;
    return i;
  }
  const next = argv[i + 1];
  if (next === undefined || next.startsWith('--')) throw new CliError(`${flag} (${envName(name)}) needs a value`);
  set(next);
  return i + 1;
}
