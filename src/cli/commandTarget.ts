/** Which running emulator a client command drives, and as whom: flag, then environment variable, then ready file, then default. */

import { readFileSync } from 'node:fs';
import { describeIssues } from '../domain/issues.js';
import { commandSettings, envName, flagName, settings } from '../options.js';
import { type CommandLine, UsageError, takeText } from './commandLine.js';
import type { ReadyInfo } from './readyInfo.js';

export interface CommandTarget {
  origin: string;
  controlToken?: string;
  apiKey: string;
  signingSecret: string;
}

/** The connection flags every command takes, by setting name. */
export const targetSettings = ['url', 'readyFile', 'controlToken', 'apiKey', 'signingSecret'] as const;
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
  const url = given('url');
  if (url !== undefined) {
    const checked = commandSettings.url.schema.safeParse(url);
    if (!checked.success)
      throw new UsageError(describeIssues(checked.error, flags.url === undefined ? envName('url') : flagName('url')));
  }
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
