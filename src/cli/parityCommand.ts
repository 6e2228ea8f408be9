/** `sms-emulator parity <action>`: diff a transcript against a fresh emulator, turn an incident into a scenario, recheck a provider. */

import { readFileSync, writeFileSync } from 'node:fs';
import { lazyPackage } from '../lazyPackage.js';
import { parseDuration } from '../domain/time.js';
import {
  type EmulatorOptions,
  type OptionName,
  envName,
  readSettingText,
  resolveOptions,
  settings,
} from '../options.js';
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
    usage:
      'parity diff <transcript> [--rules <file>] [--openapi <document>] [--option <key=value>]... [--config <file>] [--json] [--junit <file>] [--html <file>]',
    summary: 'replays a transcript into a fresh emulator and reports what differs, in tiers',
    help: `Replays the transcript's requests and replies into a fresh emulator (a world on a test clock moved to each line's
time), then compares status, error code, which error wins, fields and their types, values after the rules'
normalisers, credits, and each message's webhooks (each leg's order, duplicates counted). Needs no emulator running.
Exit status 0 passed (warn, info and waived findings do not fail), 1 drift (an error finding), 2 unreadable input (a
command line mistake, a transcript, rules file, config or document that cannot be read, a report that cannot be
written).

  --rules <file>          a rules file (YAML or JSON): ignore, normalise, timeTolerance, tiers, fields, waive
                          (docs/parity.md)
  --openapi <document>    also validate each recorded answer and webhook against an OpenAPI document (a file, YAML
                          or JSON; "emulator" for the emulator's own): each violation a schema-violation finding
  --option <key=value>    a setting of the replaying emulator (batchLimit=100, pricing=per-message; docs/options.md),
                          checked as the emulator checks it; repeat it for more
  --config <file>         the replaying emulator's settings as a YAML or JSON object (--option wins over it)
  --json                  print the report as JSON instead of the table
  --junit <file>          also write JUnit XML for CI (an error finding is a failing test case)
  --html <file>           also write a self-contained HTML page of the report
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
      'parity recheck <transcript> --upstream <url> --api-key <key> --signing-secret <secret> [--pace <n>] [--webhook-port <port>] [--settle <d>] [--keep-time] [--rules <file>] [--json] [--junit <file>]',
    summary: 'reissues a transcript at a provider, paced as recorded, and reports what it now answers differently',
    help: `Sends the transcript's requests to --upstream at their recorded times, every one with your key and secret
(signed as the transcript's were: valid, wrong or none), follows no redirect (a redirect is a status finding naming
where it pointed), and compares the answers as parity diff does, labelled "the transcript" and "the provider". With
--webhook-port it also hears the provider's webhooks there (set the provider's webhook URL to that address) and
compares each message's notifications. Balances are compared as what was charged since the session's start. For a
scheduled job, not for every change: it calls the provider. Replies (a phone's) are not rechecked.
Exit status 1 when a finding is an error.

  --upstream <url>          the provider's base URL
  --api-key <key>           the key to send every request as (env SMS_EMULATOR_API_KEY)
  --signing-secret <s>      its signing secret (env SMS_EMULATOR_SIGNING_SECRET)
  --pace <n>                go n times faster than recorded (default 1); the time the provider took to move a
                            message before the app read it again is kept whole
  --webhook-port <port>     hear the provider's webhooks on this port (0: a free one) of --webhook-host
  --webhook-host <host>     the address to listen on (default 127.0.0.1)
  --settle <d>              how late a notification may come: listened for past the last one due, and waited
                            for by a read the app made after it (default 1s)
  --keep-time               compare times as offsets from the start, within the rules' timeTolerance
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

/** A YAML or JSON file's value; a file that does not parse is a usage error naming it. */
function readDocument(path: string, what: string): unknown {
  const text = readText(path, what);
  try {
    return lazyPackage('yaml').parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${path}: ${what} is not YAML or JSON: ${(error as Error).message}`);
  }
}

/** `batch-limit` or `batchLimit` → `batchLimit`, when it names a setting of the emulator. */
function settingNamed(key: string): OptionName | undefined {
  const name = key.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return Object.hasOwn(settings, name) ? (name as OptionName) : undefined;
}

/** Options checked as the emulator checks its own; a bad one is a usage error naming where it came from. */
function checkedOptions(options: Record<string, unknown>, source: string): EmulatorOptions {
  if ('clock' in options)
    throw new UsageError(`${source}: a replay always runs on a manual test clock; leave clock out`);
  try {
    resolveOptions(options as EmulatorOptions);
  } catch (error) {
    throw new UsageError(`${source}: ${(error as Error).message.replace(/^sms-emulator: /, '').replace(/\.$/, '')}`);
  }
  return options as EmulatorOptions;
}

/** The replaying emulator's settings: `--config`'s object, then each `--option key=value` over it. */
function replayOptions(line: CommandLine): EmulatorOptions {
  const configFile = takeText(line, 'config');
  const config = configFile === undefined ? {} : readDocument(configFile, 'the config file');
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    throw new UsageError(`${configFile}: the config file is not an object of settings (docs/options.md)`);
  const options = checkedOptions({ ...config }, configFile ?? '--config');
  for (const given of line.flags.get('option') ?? []) {
    const text = given === true ? '' : given;
    const equals = text.indexOf('=');
    const name = settingNamed(text.slice(0, Math.max(0, equals)));
    if (name === undefined)
      throw new UsageError(
        `--option ${JSON.stringify(text)}: give it as key=value with a setting of the emulator (docs/options.md)`,
      );
    const value = readSettingText(name, text.slice(equals + 1));
    Object.assign(options, checkedOptions({ [name]: value }, `--option ${text}`));
  }
  line.flags.delete('option');
  return options;
}

/** The OpenAPI document `--openapi` names: a file, or `emulator` for the emulator's own. */
async function readOpenApi(source: string): Promise<unknown> {
  if (source === 'emulator') return (await import('../control/openapi.js')).openApiDocument();
  return readDocument(source, 'the OpenAPI document');
}

async function diffAction(line: CommandLine): Promise<CommandResult> {
  const rulesFile = takeText(line, 'rules');
  const junit = takeText(line, 'junit');
  const html = takeText(line, 'html');
  const openapiSource = takeText(line, 'openapi');
  const emulator = replayOptions(line);
  const json = takeSwitch(line, 'json');
  refuseRest(line, 'diff', 1);
  const [path] = line.positionals;
  if (path === undefined) throw new UsageError('parity diff needs a transcript file');
  const transcript = readTranscriptFile(path);
  const rules = rulesFile === undefined ? undefined : readText(rulesFile, 'the rules file');
  const openapi = openapiSource === undefined ? undefined : await readOpenApi(openapiSource);
  const { parityDiff, parityReportJunit, parityReportText } = await import('../parity/parityDiff.js');
  let report;
  try {
    report = await parityDiff(transcript, {
      emulator,
      ...(rules === undefined ? {} : { rules }),
      ...(openapi === undefined ? {} : { openapi }),
    });
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith('the rules file')) throw new UsageError(`${rulesFile}: ${message}`);
    if (message.startsWith('the OpenAPI document')) throw new UsageError(`${openapiSource}: ${message}`);
    // The transcript parsed but cannot be replayed (a reply from a number the message was not sent to…): unreadable.
    throw new UsageError(`${path} cannot be replayed: ${message.replace(/^sms-emulator: /, '').replace(/\.$/, '')}`);
  }
  const stdout = json ? `${JSON.stringify(report, null, 2)}\n` : parityReportText(report, path);
  let stderr = '';
  if (junit !== undefined) stderr += write(junit, parityReportJunit(report, path)) ?? '';
  if (html !== undefined) {
    const { parityReportPage } = await import('../parity/parityReportPage.js');
    stderr += write(html, parityReportPage(report, path)) ?? '';
  }
  return { stdout, stderr, exitCode: stderr !== '' ? 2 : report.passed ? 0 : 1 };
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
  const paceText = takeText(line, 'pace');
  const portText = takeText(line, 'webhook-port');
  const host = takeText(line, 'webhook-host');
  const settleText = takeText(line, 'settle');
  refuseRest(line, 'recheck', 1);
  const pace = paceText === undefined ? 1 : Number(paceText);
  if (!(pace >= 1)) throw new UsageError(`--pace ${JSON.stringify(paceText)} must be a number of 1 or more`);
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535))
    throw new UsageError(`--webhook-port ${JSON.stringify(portText)} must be a port number (0: a free one)`);
  const settleMs = settleText === undefined ? undefined : parseDuration(settleText);
  if (settleText !== undefined && settleMs === undefined)
    throw new UsageError('--settle must be a duration, such as 1s or 500ms');
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
      pace,
      ...(port === undefined ? {} : { webhooks: { port, ...(host === undefined ? {} : { host }) } }),
      ...(settleMs === undefined ? {} : { settleMs }),
      ...(rules === undefined ? {} : { rules }),
    });
  } catch (error) {
    if ((error as Error).message.startsWith('the rules file'))
      throw new UsageError(`${rulesFile}: ${(error as Error).message}`);
    // No answer at all (a refused connection, a name that does not resolve) is not drift: the check could not run.
    throw new UsageError(`cannot recheck at ${upstream}: ${(error as Error).message}`);
  }
  const stdout = json
    ? `${JSON.stringify(report, null, 2)}\n`
    : parityReportText(report, path).replace(/^parity diff/, 'parity recheck');
  const failed = junit === undefined ? undefined : write(junit, parityReportJunit(report, path));
  return { stdout, stderr: failed ?? '', exitCode: failed !== undefined ? 2 : report.passed ? 0 : 1 };
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
