/** Reads CLI flags and their environment twins into emulator options; every bad flag is a clear error. */

import { type EmulatorOptions, type OptionName, envName, flagName, readSettingText, settings } from '../options.js';

export interface CliRequest {
  help: boolean;
  version: boolean;
  options: EmulatorOptions;
}

const cliSettings = (Object.keys(settings) as OptionName[]).filter((name) => settings[name].cli);
const byFlag = new Map(cliSettings.map((name) => [flagName(name), name]));

export class CliError extends Error {}

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliRequest {
  const values: Partial<Record<OptionName, unknown>> = {};
  for (const name of cliSettings) {
    const text = env[envName(name)];
    if (text !== undefined && text !== '') values[name] = readSettingText(name, text);
  }
  const flagged = new Set<OptionName>();
  let help = false;
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--version' || arg === '-v') version = true;
    else if (arg.startsWith('--')) i = readFlag(argv, i, values, flagged);
    else throw new CliError(`unexpected argument "${arg}"; flags start with -- (see --help)`);
  }
  return { help, version, options: values as EmulatorOptions };
}

/** Reads one flag at argv[i]; returns the index of the last argument it used. A repeated list flag adds to the list. */
function readFlag(argv: readonly string[], i: number, values: Partial<Record<OptionName, unknown>>, flagged: Set<OptionName>): number {
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
    const value = readSettingText(name, text);
    const previous = values[name];
    values[name] = settings[name].kind === 'list' && flagged.has(name) && Array.isArray(previous) ? [...previous, ...(value as unknown[])] : value;
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
  if (next === undefined || next.startsWith('--')) throw new CliError(`${flag} needs a value`);
  set(next);
  return i + 1;
}

export function helpText(version: string): string {
  const rows = cliSettings.map((name) => {
    const setting = settings[name];
    const value = setting.kind === 'boolean' ? '' : ' <value>';
    return `  ${(flagName(name) + value).padEnd(30)} ${setting.description}\n  ${''.padEnd(30)} env ${envName(name)}`;
  });
  return `sms-emulator ${version}: an in-memory emulator of the SMS messaging REST API.

Usage: sms-emulator [flags]

Flags (each has an environment-variable twin; flags win):
${rows.join('\n')}
  --help, -h                     Show this help.
  --version, -v                  Print the version.

Boolean flags take --flag, --flag=false or --no-flag.
Docs: README.md, and <origin>/_emulator/docs while running.
`;
}
