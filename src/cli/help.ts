/** The text of --help: every flag with its environment twin, default and allowed values, read from the settings table. */

import { z } from 'zod';
import { envName, flagName, settings } from '../options.js';
import { cliSettings } from './args.js';
import { commandsOverview } from './commandHelp.js';

export function helpText(version: string): string {
  const rows = cliSettings.map((name) => {
    const setting = settings[name];
    const value = setting.kind === 'boolean' ? '' : ' <value>';
    const facts = [`env ${envName(name)}`, ...defaultAndAllowed(setting.schema as z.ZodType)].join('; ');
    return `  ${(flagName(name) + value).padEnd(30)} ${setting.description}\n  ${''.padEnd(30)} ${facts}`;
  });
  return `sms-emulator ${version}: an in-memory emulator of the SMS messaging REST API.

Usage: sms-emulator [flags]                       starts an emulator
       sms-emulator <command> [arguments] [flags]   drives a running one

Flags (each has an environment-variable twin; flags win):
${rows.join('\n')}
  --help, -h                     Show this help.
  --version, -v                  Print the version.

Boolean flags take --flag, --flag=false or --no-flag.

${commandsOverview()}
Docs: README.md and docs/ (in the package), and <origin>/_emulator/docs while running.
`;
}

/** `default 2727`, `one of: bare, wrapped`: what --help says about a setting's values, read from its schema. */
function defaultAndAllowed(schema: z.ZodType): string[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    default?: unknown;
    enum?: unknown[];
    items?: { enum?: unknown[] };
  };
  const allowed = json.enum ?? json.items?.enum;
  return [
    ...(json.default === undefined
      ? []
      : [`default ${Array.isArray(json.default) ? json.default.join(',') : String(json.default)}`]),
    ...(allowed === undefined ? [] : [`one of: ${allowed.join(', ')}`]),
  ];
}
