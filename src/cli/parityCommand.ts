/** `sms-emulator parity <action>`: diff a transcript against a fresh emulator (more actions in docs/parity.md). */

import { readFileSync, writeFileSync } from 'node:fs';
import { type CommandLine, UsageError, splitCommandLine, takeText } from './commandLine.js';
import type { CommandResult } from './commandResult.js';
import { TranscriptError, parseTranscript } from '../parity/transcript.js';

interface Action {
  usage: string;
  summary: string;
  help: string;
  run: (line: CommandLine, env: NodeJS.ProcessEnv) => Promise<CommandResult>;
}

const actions: Record<string, Action> = {
  diff: {
    usage: 'parity diff <transcript> [--rules <file>] [--json] [--junit <file>] [--html <file>]',
    summary: 'replays a transcript into a fresh emulator and reports what differs, in tiers',
    help: `Replays the transcript's requests and replies into a fresh emulator (a world on a test clock moved to each line's
time), then compares status, error code, which error wins, fields and their types, values after the rules'
normalisers, credits, and each message's webhooks (each leg's order, duplicates counted). Needs no emulator running.
Exit status 1 when a finding is an error, 0 otherwise (warn and info do not fail), 2 for a command line mistake.

  --rules <file>   a rules file (YAML or JSON): ignore, normalise, timeTolerance, tiers (docs/parity.md)
  --json           print the report as JSON instead of the table
  --junit <file>   also write JUnit XML for CI (an error finding is a failing test case)
  --html <file>    also write a self-contained HTML page of the report
`,
    run: diffAction,
  },
};

function readText(path: string, what: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
}

/** A flag that takes no value (`--json`). */
export function takeSwitch(line: CommandLine, name: string): boolean {
  const values = line.flags.get(name);
  if (values === undefined) return false;
  line.flags.delete(name);
  if (values.length > 1 || values[0] !== true) throw new UsageError(`--${name} takes no value`);
  return true;
}

function refuseRest(line: CommandLine, action: string, positionals: number): void {
  const [unknown] = line.flags.keys();
  if (unknown !== undefined) throw new UsageError(`unknown flag --${unknown} for parity ${action}`);
  if (line.positionals.length > positionals)
    throw new UsageError(`unexpected argument "${line.positionals[positionals]}"`);
}

/** A transcript file read and checked; a bad line is named with the file. */
export function readTranscriptFile(path: string): ReturnType<typeof parseTranscript> {
  const text = readText(path, 'the transcript');
  try {
    return parseTranscript(text);
  } catch (error) {
    if (error instanceof TranscriptError) throw new UsageError(`${path} ${error.message}`);
    throw error;
  }
}

function write(path: string, text: string): string | undefined {
  try {
    writeFileSync(path, text);
    return undefined;
  } catch (error) {
    return `sms-emulator: cannot write ${path}: ${(error as Error).message}\n`;
  }
}

async function diffAction(line: CommandLine): Promise<CommandResult> {
  const rulesFile = takeText(line, 'rules');
  const junit = takeText(line, 'junit');
  const html = takeText(line, 'html');
  const json = takeSwitch(line, 'json');
  refuseRest(line, 'diff', 1);
  const [path] = line.positionals;
  if (path === undefined) throw new UsageError('parity diff needs a transcript file');
  const transcript = readTranscriptFile(path);
  const rules = rulesFile === undefined ? undefined : readText(rulesFile, 'the rules file');
  const { parityDiff, parityReportJunit, parityReportText } = await import('../parity/parityDiff.js');
  let report;
  try {
    report = await parityDiff(transcript, rules === undefined ? {} : { rules });
  } catch (error) {
    if ((error as Error).message.startsWith('the rules file'))
      throw new UsageError(`${rulesFile}: ${(error as Error).message}`);
    throw error;
  }
  const stdout = json ? `${JSON.stringify(report, null, 2)}\n` : parityReportText(report, path);
  let stderr = '';
  if (junit !== undefined) stderr += write(junit, parityReportJunit(report, path)) ?? '';
  if (html !== undefined) {
    const { parityReportPage } = await import('../parity/parityReportPage.js');
    stderr += write(html, parityReportPage(report, path)) ?? '';
  }
  return { stdout, stderr, exitCode: report.passed && stderr === '' ? 0 : 1 };
}

function parityHelp(): string {
  const rows = Object.values(actions).map((action) => `  sms-emulator ${action.usage}\n      ${action.summary}`);
  return `Usage: sms-emulator parity <action> [arguments] [flags]

Proves the emulator against what a provider did (a transcript: JSON Lines, docs/parity.md).

Actions:
${rows.join('\n')}

Run sms-emulator parity <action> --help for an action's flags.
`;
}

export async function parityCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  const [name, ...rest] = argv;
  if (name === undefined || name.startsWith('-')) {
    if (splitCommandLine(argv).help) return { stdout: parityHelp(), stderr: '', exitCode: 0 };
    throw new UsageError(`parity needs an action: ${Object.keys(actions).join(', ')}`);
  }
  const action = actions[name];
  if (action === undefined)
    throw new UsageError(`unknown action "${name}" of parity; its actions: ${Object.keys(actions).join(', ')}`);
  const line = splitCommandLine(rest);
  if (line.help) return { stdout: `Usage: sms-emulator ${action.usage}\n\n${action.help}`, stderr: '', exitCode: 0 };
  return action.run(line, env);
}
