/**
 * Runs one client command against a running emulator (`sms-emulator clock advance 1h --url …`): the answer as JSON on
 * standard output; an error's code and description on standard error with exit status 1 (2 for a command line mistake).
 */

import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ApiError } from '../domain/errors.js';
import { maskUrlsInText } from '../domain/credentials.js';
import { pageFields } from '../domain/list.js';
import { connect } from '../testing/connect.js';
import { type Command, type Positional, commandList, kebab } from './commandTable.js';
import { type CommandLine, UsageError, splitCommandLine, takeText } from './commandLine.js';
import { type CommandResult, printed } from './commandResult.js';
import { type CommandTarget, targetOf } from './commandTarget.js';
import { commandHelp, groupHelp } from './commandHelp.js';
import { sendCommand } from './sendCommand.js';
import { checkReceiverCommand } from './checkReceiverCommand.js';

export async function runCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  const commands = commandList();
  const words = argv.slice(0, 2).map(kebab);
  const command =
    commands.find((entry) => entry.name === words[0]) ??
    commands.find((entry) => entry.name === `${words[0]} ${words[1]}`);
  const inGroup = commands.filter((entry) => entry.name.startsWith(`${words[0]} `));
  try {
    if (words[0] === 'send') return await sendCommand(splitCommandLine(argv.slice(1)), env);
    if (words[0] === 'check-receiver') return await checkReceiverCommand(splitCommandLine(argv.slice(1)));
    if (words[0] === 'transcript')
      return await (await import('./transcriptCommand.js')).transcriptCommand(splitCommandLine(argv.slice(1)), env);
    if (words[0] === 'record')
      return await (await import('./recordCommand.js')).recordCommand(splitCommandLine(argv.slice(1)));
    if (words[0] === 'lint') return (await import('./lintCommand.js')).lintCommand(splitCommandLine(argv.slice(1)));
    if (words[0] === 'parity') return await (await import('./parityCommand.js')).parityCommand(argv.slice(1), env);
    if (command === undefined) {
      if (inGroup.length === 0) throw new UsageError(`unknown command "${argv[0]}"`);
      const rest = splitCommandLine(argv.slice(1));
      if (rest.help && rest.positionals.length === 0)
        return { stdout: groupHelp(words[0] as string, inGroup), stderr: '', exitCode: 0 };
      const actions = inGroup.map((entry) => entry.name.split(' ')[1]).join(', ');
      const action = argv[1];
      throw new UsageError(
        action === undefined || action.startsWith('-')
          ? `${argv[0]} needs an action: ${actions}`
          : `unknown action "${action}" of ${argv[0]}; its actions: ${actions}`,
      );
    }
    const line = splitCommandLine(argv.slice(command.name.split(' ').length));
    if (line.help) return { stdout: commandHelp(command), stderr: '', exitCode: 0 };
    const target = targetOf(line, env);
    const args = commandArgs(command, line);
    return { stdout: printed(await call(command, target, args)), stderr: '', exitCode: 0 };
  } catch (error) {
    return failure(
      error,
      words[0] === 'send' ||
        words[0] === 'check-receiver' ||
        words[0] === 'transcript' ||
        words[0] === 'record' ||
        words[0] === 'lint'
        ? words[0]
        : words[0] === 'parity'
          ? ['parity', argv[1]].filter((word) => word !== undefined && !word.startsWith('-')).join(' ')
          : (command?.name ?? (inGroup.length > 0 ? words[0] : undefined)),
    );
  }
}

/** The handle arguments the command line gives, each checked as far as the command knows its shape. */
function commandArgs(command: Command, line: CommandLine): unknown[] {
  const args: unknown[] = [];
  const { positionals } = command;
  if (line.positionals.length > positionals.length)
    throw new UsageError(`unexpected argument "${line.positionals[positionals.length]}"`);
  if (line.positionals.length < positionals.length)
    throw new UsageError(`${command.name} needs ${positionals.map(placeholder).join(' ')}`);
  const fields: Record<string, unknown> = {};
  positionals.forEach((positional, index) => {
    const text = line.positionals[index] as string;
    if (text === '') throw new UsageError(`<${positional.name}> is empty`);
    if (positional.field !== undefined)
      fields[positional.field] = fieldValue(positional.name, command.fields?.shape?.[positional.field], text);
    else args[positional.arg] = positional.file ? readInput(text, positional.name) : text;
  });
  for (const { name, arg } of command.scalarFlags) {
    const value = takeText(line, name);
    if (value !== undefined) args[arg] = value;
  }
  const body = takeText(line, 'body');
  const slot = command.fields;
  if (slot === undefined) {
    const [flag] = [...line.flags.keys(), ...(body === undefined ? [] : ['body'])];
    if (flag !== undefined) throw new UsageError(`unknown flag --${flag} for ${command.name}`);
    return args;
  }
  const base = body === undefined ? {} : bodyObject(body);
  for (const [flag, values] of line.flags) {
    const name = fieldName(flag, slot.shape, slot.paged);
    if (name === undefined)
      throw new UsageError(`unknown flag --${flag} for ${command.name}${flagList(slot.shape, slot.paged)}`);
    if (values.length > 1) throw new UsageError(`--${flag} is given ${values.length} times; give it once`);
    fields[name] = fieldValue(flag, slot.shape?.[name], values[0] as string | true);
  }
  if (body !== undefined || Object.keys(fields).length > 0) args[slot.arg] = { ...base, ...fields };
  if (command.mapping !== undefined) refuseDropped(command.mapping, command.name, args, fields);
  return args;
}

/** A shortcut passes its arguments on to another operation: a flag its mapping leaves out would be silently dropped. */
function refuseDropped(
  mapping: (...args: unknown[]) => unknown[],
  name: string,
  args: unknown[],
  fields: Record<string, unknown>,
): void {
  const passed = mapping(...args);
  for (const [field, value] of Object.entries(fields)) {
    const kept = passed.some(
      (arg) => typeof arg === 'object' && arg !== null && (arg as Record<string, unknown>)[field] === value,
    );
    if (!kept) throw new UsageError(`${name} does not take --${kebab(field)}`);
  }
}

/** The paging flags a listing command takes beside its filter. */
const pageFieldNames: readonly string[] = Object.keys(pageFields);

function placeholder(positional: Positional): string {
  return `<${positional.name}>`;
}

function flagList(shape: Record<string, z.ZodType> | undefined, paged: boolean): string {
  if (shape === undefined) return '';
  const names = [...Object.keys(shape), ...(paged ? pageFieldNames : [])];
  return names.length === 0
    ? ' (it takes no fields)'
    : `; it takes ${names.map((name) => `--${kebab(name)}`).join(', ')}`;
}

/** `--webhook-url` or `--webhookUrl` → `webhookUrl` when the schema has it; any name when the command has no schema. */
function fieldName(flag: string, shape: Record<string, z.ZodType> | undefined, paged: boolean): string | undefined {
  if (shape === undefined) return flag;
  const camel = flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return [flag, camel].find((name) => name in shape || (paged && pageFieldNames.includes(name)));
}

/**
 * A flag's text as the field wants it: kept as text when the schema takes text, else read as JSON (`60`, `true`, `{…}`)
 * when text is the wrong type for it, so the emulator reports what is wrong with the value (`2` is above 1), not its type.
 */
function fieldValue(flag: string, schema: z.ZodType | undefined, raw: string | true): unknown {
  // A bare flag is `true` only for a field that takes it (`--run-until-idle`); any other is missing its value.
  if (raw === true) {
    if (schema === undefined || schema.safeParse(true).success) return true;
    throw new UsageError(`--${flag} needs a value`);
  }
  const parsed = parseJson(raw);
  if (schema === undefined) return /^\s*[[{]/.test(raw) && parsed !== undefined ? parsed : raw;
  const asText = schema.safeParse(raw);
  if (asText.success || parsed === undefined) return raw;
  return asText.error.issues.every((issue) => issue.code === 'invalid_type' || issue.code === 'invalid_union')
    ? parsed
    : raw;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `--body '{"…"}'`, `--body @file.json` or `--body @-` (standard input): a JSON object. */
function bodyObject(text: string): Record<string, unknown> {
  const json = text.startsWith('@') ? readInput(text.slice(1), '--body') : text;
  const parsed = parseJson(json);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError('--body needs a JSON object (or @file holding one)');
  return parsed as Record<string, unknown>;
}

/** A file's text, or standard input's for `-`. */
function readInput(path: string, what: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${what} from ${path === '-' ? 'standard input' : path}: ${(error as Error).message}`,
    );
  }
}

async function call(command: Command, target: CommandTarget, args: unknown[]): Promise<unknown> {
  const handle = connect(target.origin, {
    fetch: target.fetch,
    ...(target.controlToken === undefined ? {} : { controlToken: target.controlToken }),
  }) as unknown as Record<string, unknown>;
  const [group, member] = command.operationId.split('.') as [string, string | undefined];
  const operation = (member === undefined ? handle[group] : (handle[group] as Record<string, unknown>)[member]) as (
    ...rest: unknown[]
  ) => Promise<unknown>;
  return operation(...args);
}

/**
 * An error as standard error shows it: the catalogued code and description, or what went wrong on the command line; a
 * URL's password quoted in it (a flag's value, a fetch error naming its URL) is masked.
 */
export function failure(error: unknown, command: string | undefined): CommandResult {
  if (error instanceof UsageError) {
    const help =
      command === undefined
        ? 'sms-emulator --help for the commands'
        : `sms-emulator ${command} --help for its arguments`;
    return { stdout: '', stderr: maskUrlsInText(`sms-emulator: ${error.message}.\nRun ${help}.\n`), exitCode: 2 };
  }
  if (error instanceof ApiError)
    return { stdout: '', stderr: maskUrlsInText(`sms-emulator: ${error.code}: ${error.description}\n`), exitCode: 1 };
  return { stdout: '', stderr: maskUrlsInText(`${(error as Error).message}\n`), exitCode: 1 };
}
