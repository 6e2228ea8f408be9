/** The help texts of the client commands: the overview in --help, one group's actions, one command's arguments and flags. */

import { z } from 'zod';
import { type Command, commandList, kebab } from './commandTable.js';
import { commandSettings, envName, flagName } from '../options.js';
import { scheduleFormat, scheduleWindowWords } from '../domain/scheduleWindow.js';

const connection: [string, string][] = [
  [`${flagName('url')} <origin>`, `${commandSettings.url.description} Env ${envName('url')}.`],
  [
    '--ready-file <path>',
    `Read the origin (and the default account's key and secret) from the emulator's ready file. Env ${envName('readyFile')}.`,
  ],
  ['--control-token <token>', `The emulator's --control-token, when it has one. Env ${envName('controlToken')}.`],
  [
    `${flagName('timeout')} <duration>`,
    `${commandSettings.timeout.description} Default 30s. Env ${envName('timeout')}.`,
  ],
];

function rows(entries: [string, string][]): string {
  return entries.map(([left, right]) => `  ${left.padEnd(36)} ${right}`).join('\n');
}

function usage(command: Command): string {
  const positionals = command.positionals.map((positional) => ` <${positional.name}>`).join('');
  return `sms-emulator ${command.name}${positionals}`;
}

/** The Commands section of `sms-emulator --help`: every group with its actions. */
export function commandsOverview(): string {
  const groups = new Map<string, string[]>();
  for (const command of commandList()) {
    const [group, action] = command.name.includes(' ') ? command.name.split(' ') : ['', command.name];
    groups.set(group as string, [...(groups.get(group as string) ?? []), action as string]);
  }
  const lines = [...groups].map(([group, actions]) =>
    group === '' ? `  ${actions.join(' | ')}` : `  ${group.padEnd(10)} ${actions.join(' | ')}`,
  );
  return `Commands (drive a running emulator: the answer as JSON on standard output, an error's code on standard error):
  send --to <number> --text <message>   a signed send (or --schedule) with the account's key and secret
${lines.join('\n')}
  check-receiver <url>                  scores your webhook receiver with realistic deliveries (no emulator needed)
  lint <files, folders or globs>        finds template texts that leave GSM-7 or pass a segment budget (no emulator)
  transcript [--account <key>]          a running emulator's session as a transcript (JSON Lines)
  record --upstream <url> --out <file>  a recording proxy: requests, answers, webhooks and replies to a transcript
  parity diff | scenario | recheck      replays a transcript into a fresh emulator and diffs it, turns it (or a
                                        delivery log) into a scenario, or reissues it at a provider (docs/parity.md)
  mcp [--url <origin>]                  an MCP server on stdio for an agent, each session its own world (docs/mcp.md)
Run sms-emulator <command> --help for its actions, arguments and flags.
Usage: sms-emulator <group> <action> [arguments] [--field value ...] [--url <origin> | --ready-file <path>]
`;
}

export function groupHelp(group: string, commands: Command[]): string {
  return `Usage: sms-emulator ${group} <action> [arguments] [flags]

Actions:
${rows(commands.map((command) => [usage(command), command.summary]))}

Run sms-emulator ${group} <action> --help for an action's flags.
Connection:
${rows(connection)}
`;
}

export function commandHelp(command: Command): string {
  const slot = command.fields;
  const fields: [string, string][] = Object.entries(slot?.shape ?? {}).map(([name, schema]) => [
    `--${kebab(name)} <value>`,
    schema.description ?? valuesOf(schema),
  ]);
  if (slot?.paged) fields.push(['--page <n>', 'Page number, from 1.'], ['--limit <n>', 'Items per page.']);
  for (const { name } of command.scalarFlags) fields.push([`--${name} <value>`, '']);
  if (slot !== undefined) {
    if (slot.shape === undefined)
      fields.push(['--<field> <value>', 'Any field of the request (text, or JSON when it starts with { or [).']);
    fields.push(['--body <json> | @file | @-', 'The whole request object as JSON; flags override its fields.']);
  }
  return `Usage: ${usage(command)}${fields.length > 0 ? ' [flags]' : ''}

${command.summary}
${fields.length > 0 ? `\nFlags:\n${rows(fields)}\n` : ''}
Connection:
${rows(connection)}
`;
}

/** `one of: a, b` or `number`: what a field takes, read from its schema when it has no description. */
function valuesOf(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    enum?: unknown[];
    type?: unknown;
    anyOf?: { type?: unknown }[];
  };
  if (json.enum !== undefined) return `one of: ${json.enum.join(', ')}`;
  const types = json.type ?? json.anyOf?.map((option) => option.type).filter((type) => type !== undefined);
  return types === undefined
    ? ''
    : `${[types].flat().join(' or ')}${types === 'object' || types === 'array' ? ' (JSON)' : ''}`;
}

export function sendHelp(): string {
  return `Usage: sms-emulator send --to <number> --text <message> [flags]

Sends a message through the API (POST /v1/messages), signed with the account's secret; prints the message.

Flags:
${rows([
  ['--to <number>', 'A recipient such as 27831234567; repeat it or separate numbers with commas.'],
  ['--text <message>', 'The message text.'],
  ['--schedule <time>', `Schedule instead of sending now: ${scheduleFormat}, ${scheduleWindowWords}.`],
  ['--reference <text>', 'client_reference, returned in webhooks.'],
  ['--environment live|sandbox', 'Send to the live API (default) or the sandbox.'],
  [
    '--outcome <outcome>',
    'The X-Emulator-Outcome header: force this send’s outcome (undelivered, submitted@2s,delivered@5s, …).',
  ],
  [
    '--api-key <key>',
    `The account to send as (default the ready file's, else the default account's). Env ${envName('apiKey')}.`,
  ],
  ['--signing-secret <secret>', `Its signing secret (same defaults). Env ${envName('signingSecret')}.`],
])}

Connection:
${rows(connection)}
`;
}
