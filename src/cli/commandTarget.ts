/** Which running emulator a client command drives, and as whom: flag, then environment variable, then ready file, then default. */

import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { parseDuration } from '../domain/time.js';
import { commandSettings, envName, flagName, settings } from '../options.js';
import { type CommandLine, UsageError, takeText } from './commandLine.js';
import type { ReadyInfo } from '../domain/readyInfo.js';

export interface CommandTarget {
  origin: string;
  controlToken?: string;
  apiKey: string;
  signingSecret: string;
  /** A fetch that gives up after the --timeout (SMS_EMULATOR_TIMEOUT) with a message that says so. */
  fetch: (request: Request) => Promise<Response>;
}

/** The connection flags every command takes, by setting name. */
export const targetSettings = ['url', 'readyFile', 'controlToken', 'apiKey', 'signingSecret', 'timeout'] as const;
type TargetSetting = (typeof targetSettings)[number];

/** `--url` → `url`, for the connection flags. */
const targetFlags = new Map<string, TargetSetting>(targetSettings.map((name) => [flagName(name).slice(2), name]));

/**
 * Takes the connection flags out of the line and resolves them with the environment; `asAccount` (for `send`) also
 * takes --api-key and --signing-secret, which other commands refuse as unknown.
 */
export function targetOf(line: CommandLine, env: NodeJS.ProcessEnv, asAccount = false): CommandTarget {
  const flags: Partial<Record<TargetSetting, string>> = {};
  for (const [flag, name] of targetFlags) {
    if (!asAccount && (name === 'apiKey' || name === 'signingSecret')) continue;
    const value = takeText(line, flag);
    if (value !== undefined) flags[name] = value;
  }
  return resolveTarget(flags, env);
}

/** Reads the connection settings from `flags` (by setting name) and the environment. */
export function resolveTarget(flags: Partial<Record<TargetSetting, string>>, env: NodeJS.ProcessEnv): CommandTarget {
  const given = (name: TargetSetting): string | undefined => {
    const value = flags[name] ?? env[envName(name)];
    return value === '' ? undefined : value;
  };
  const check = <K extends keyof typeof commandSettings>(name: K): z.output<(typeof commandSettings)[K]['schema']> => {
    const checked = commandSettings[name].schema.safeParse(given(name));
    if (!checked.success)
      throw new UsageError(`${givenAs(name)}: ${checked.error.issues.map((issue) => issue.message).join('; ')}`);
    return checked.data as z.output<(typeof commandSettings)[K]['schema']>;
  };
  /** The flag and its environment variable, whichever gave the value: a bad one is found either way. */
  const givenAs = (name: TargetSetting): string => `${flagName(name)} (${envName(name)})`;
  const url = check('url');
  const timeout = check('timeout');
  const readyFile = given('readyFile');
  const ready = readyFile === undefined ? undefined : readReadyFile(readyFile);
  return {
    origin: new URL(
      url ??
        ready?.origin ??
        `http://${settings.host.schema.parse(undefined)}:${settings.port.schema.parse(undefined)}`,
    ).origin,
    controlToken: given('controlToken'),
    apiKey: given('apiKey') ?? ready?.apiKey ?? settings.apiKey.schema.parse(undefined),
    signingSecret: given('signingSecret') ?? ready?.signingSecret ?? settings.signingSecret.schema.parse(undefined),
    fetch: timedFetch(
      parseDuration(timeout) ?? 0,
      `${timeout}; ${flagName('timeout')} or ${envName('timeout')} waits longer`,
    ),
  };
}

/** Node's fetch, given up after `ms` with an error that names the limit and how to change it. */
function timedFetch(ms: number, limit: string): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      return await fetch(request, { signal: AbortSignal.timeout(ms) });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') throw new Error(`nothing answered within ${limit}`);
      throw error;
    }
  };
}

function readReadyFile(path: string): Pick<ReadyInfo, 'origin' | 'apiKey' | 'signingSecret'> {
  let info: Partial<ReadyInfo>;
  try {
    info = JSON.parse(readFileSync(path, 'utf8')) as Partial<ReadyInfo>;
  } catch (error) {
    throw new Error(
      `sms-emulator: cannot read the ready file ${path}: ${(error as Error).message} (was the emulator started with --ready-file ${path}?)`,
      {
        cause: error,
      },
    );
  }
  if (info?.name !== 'sms-emulator' || typeof info.origin !== 'string')
    throw new Error(`sms-emulator: ${path} is not a ready file of sms-emulator`);
  return info as ReadyInfo;
}
