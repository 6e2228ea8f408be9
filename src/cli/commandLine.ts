/** Splits a client command's arguments into positionals and `--name value` flags (`--name=value`, a bare `--name` is true). */

/** Whether an argument asks for help, in the start command and every client command alike. */
export const isHelpFlag = (arg: string): boolean => arg === '--help' || arg === '-h';

/** A command line mistake: reported with a pointer to --help, exit status 2. */
export class UsageError extends Error {}

export interface CommandLine {
  positionals: string[];
  /** By flag name without the dashes; a repeated flag keeps every value in order. */
  flags: Map<string, (string | true)[]>;
  help: boolean;
}

export function splitCommandLine(tokens: readonly string[]): CommandLine {
  const line: CommandLine = { positionals: [], flags: new Map(), help: false };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token === '--') {
      line.positionals.push(...tokens.slice(i + 1));
      break;
    }
    if (isHelpFlag(token)) line.help = true;
    else if (token.startsWith('--') && token.length > 2) {
      const equals = token.indexOf('=');
      const name = equals < 0 ? token.slice(2) : token.slice(2, equals);
      const next = tokens[i + 1];
      let value: string | true = true;
      if (equals >= 0) value = token.slice(equals + 1);
      else if (next !== undefined && !next.startsWith('--')) {
        value = next;
        i++;
      }
      line.flags.set(name, [...(line.flags.get(name) ?? []), value]);
    } else line.positionals.push(token);
  }
  return line;
}

/** The one value of a flag that takes text, or undefined when not given; given twice or without a value is an error. */
export function takeText(line: CommandLine, name: string): string | undefined {
  const values = line.flags.get(name);
  if (values === undefined) return undefined;
  line.flags.delete(name);
  if (values.length > 1) throw new UsageError(`--${name} is given ${values.length} times; give it once`);
  const [value] = values;
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
}

/** A flag that takes no value (`--json`). */
export function takeSwitch(line: CommandLine, name: string): boolean {
  const values = line.flags.get(name);
  if (values === undefined) return false;
  line.flags.delete(name);
  if (values.length > 1 || values[0] !== true) throw new UsageError(`--${name} takes no value`);
  return true;
}
