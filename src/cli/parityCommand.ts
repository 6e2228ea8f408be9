/** `sms-emulator parity <action>`: diff a transcript against a fresh emulator, turn an incident into a scenario, recheck a provider. */

import { readFileSync, writeFileSync } from 'node:fs';
import { lazyPackage } from '../lazyPackage.js';
import { envName } from '../options.js';
import { type CommandLine, UsageError, splitCommandLine, takeText, takeSwitch } from './commandLine.js';
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
  scenario: {
    usage: 'parity scenario <transcript | delivery log> [--out <file>] [--json] [--timezone <IANA zone>] [--strict]',
    summary: 'writes a scenario that reproduces an incident: per-number timelines, replies, delivery behaviours',
    help: `Reads a transcript, or a provider's delivery log (CSV with a header row, delimited by , ; or tab, or JSON: an
array of receipts with id, recipient, status, time, and optionally received, sent and text; a status may be an SMPP
receipt word such as DELIVRD; a row whose status is reply is an inbound reply), and writes a scenario whose
per-number timelines, replies and delivery behaviours (late, duplicate, reorder, orphan, as observed, with their
gaps) reproduce the incident on the virtual clock: send the same messages at the same offsets and the same statuses
arrive in the same order at the same virtual times. Load it as a file (--scenario) or as a test's own scenario
(sms.scenario.set, world.scenario in a kit). The comment at the top lists each leg's expected story. A row whose
recipient the API would refuse is left out with a warning. Exit status 2 for a log that cannot be read.

  --out <file>             write the scenario there instead of standard output
  --json                   write JSON instead of YAML
  --timezone <IANA zone>   read times written without a UTC offset in this zone (such as Africa/Johannesburg);
                           without it such a time is refused
  --strict                 refuse a row whose recipient the API would refuse, instead of leaving it out
`,
    run: scenarioAction,
  },
  recheck: {
    usage:
      'parity recheck <transcript> --upstream <url> --api-key <key> --signing-secret <secret> [--keep-time] [--rules <file>] [--json] [--junit <file>]',
    summary: 'reissues a transcript at a provider and reports what it now answers differently',
    help: `Sends the transcript's requests, in order, to --upstream with your own key and secret (signed as the
transcript's were: valid, wrong or none), and compares the answers as parity diff does. For a scheduled job, not for
every change: it calls the provider. Webhooks and replies are not rechecked. Exit status 1 when a finding is an error.

  --upstream <url>          the provider's base URL
  --api-key <key>           the key to send as (env SMS_EMULATOR_API_KEY)
  --signing-secret <s>      its signing secret (env SMS_EMULATOR_SIGNING_SECRET)
  --keep-time               compare times as offsets (the requests go out one after another, so off by default)
  --rules <file>            a rules file, as for parity diff
  --json, --junit <file>    as for parity diff
`,
    run: recheckAction,
  },
};

function readText(path: string, what: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
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

async function scenarioAction(line: CommandLine): Promise<CommandResult> {
  const out = takeText(line, 'out');
  const json = takeSwitch(line, 'json');
  const timeZone = takeText(line, 'timezone');
  const strict = takeSwitch(line, 'strict');
  refuseRest(line, 'scenario', 1);
  const [path] = line.positionals;
  if (path === undefined) throw new UsageError('parity scenario needs a transcript or a delivery log file');
  const text = readText(path, 'the incident');
  const { DeliveryLogError, deliveryLogReceipts, incidentScenario, transcriptReceipts } =
    await import('../parity/incidentScenario.js');
  let made;
  try {
    const isTranscript = /^\s*\{[^\n]*"type"\s*:\s*"header"/.test(text);
    const receipts = isTranscript
      ? transcriptReceipts(text)
      : deliveryLogReceipts(text, timeZone === undefined ? {} : { timeZone });
    made = incidentScenario(receipts, path, { strict });
  } catch (error) {
    if (error instanceof DeliveryLogError) throw new UsageError(`${path}: ${error.code}: ${error.description}`);
    if (error instanceof TranscriptError) throw new UsageError(`${path} ${error.message}`);
    throw error;
  }
  const story = made.legs.map(
    (leg) =>
      `#   ${leg.recipient} (${leg.message}), sent at +${leg.sentAt} ms: ${leg.statuses.map((step) => `${step.status} after ${step.after} ms`).join(', ')}`,
  );
  const notes = [
    ...made.warnings.map((warning) => `# warning: ${warning}`),
    ...made.notes.map((note) => `# note: ${note}`),
  ];
  const warned = made.warnings.map((warning) => `sms-emulator: warning: ${path}: ${warning}\n`).join('');
  const body = json
    ? `${JSON.stringify(made.scenario, null, 2)}\n`
    : `# Written by sms-emulator parity scenario from ${made.source}.\n# Each leg as the incident showed it:\n${[...story, ...notes].join('\n')}\n${lazyPackage('yaml').stringify(made.scenario)}`;
  if (out === undefined) return { stdout: body, stderr: warned, exitCode: 0 };
  const failed = write(out, body);
  return failed === undefined
    ? {
        stdout: '',
        stderr: `${warned}sms-emulator: wrote ${out} (${made.legs.length} legs, ${made.notes.length} notes)\n`,
        exitCode: 0,
      }
    : { stdout: '', stderr: warned + failed, exitCode: 1 };
}

async function recheckAction(line: CommandLine, env: NodeJS.ProcessEnv): Promise<CommandResult> {
  const upstream = takeText(line, 'upstream');
  const apiKey = takeText(line, 'api-key') ?? env[envName('apiKey')];
  const signingSecret = takeText(line, 'signing-secret') ?? env[envName('signingSecret')];
  const rulesFile = takeText(line, 'rules');
  const junit = takeText(line, 'junit');
  const json = takeSwitch(line, 'json');
  const keepTime = takeSwitch(line, 'keep-time');
  refuseRest(line, 'recheck', 1);
  const [path] = line.positionals;
  if (path === undefined) throw new UsageError('parity recheck needs a transcript file');
  if (upstream === undefined) throw new UsageError('parity recheck needs --upstream <url>');
  try {
    new URL(upstream);
  } catch {
    throw new UsageError(`--upstream ${JSON.stringify(upstream)} is not a URL`);
  }
  if (apiKey === undefined || apiKey === '')
    throw new UsageError('parity recheck needs --api-key (or SMS_EMULATOR_API_KEY)');
  if (signingSecret === undefined || signingSecret === '')
    throw new UsageError('parity recheck needs --signing-secret (or SMS_EMULATOR_SIGNING_SECRET)');
  const transcript = readTranscriptFile(path);
  const rules = rulesFile === undefined ? undefined : readText(rulesFile, 'the rules file');
  const { parityRecheck } = await import('../parity/recheck.js');
  const { parityReportJunit, parityReportText } = await import('../parity/parityDiff.js');
  let report;
  try {
    report = await parityRecheck(transcript, {
      upstream,
      apiKey,
      signingSecret,
      keepTime,
      ...(rules === undefined ? {} : { rules }),
    });
  } catch (error) {
    if ((error as Error).message.startsWith('the rules file'))
      throw new UsageError(`${rulesFile}: ${(error as Error).message}`);
    throw error;
  }
  const stdout = json
    ? `${JSON.stringify(report, null, 2)}\n`
    : parityReportText(report, path).replace(/^parity diff/, 'parity recheck');
  const failed = junit === undefined ? undefined : write(junit, parityReportJunit(report, path));
  return { stdout, stderr: failed ?? '', exitCode: report.passed && failed === undefined ? 0 : 1 };
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
