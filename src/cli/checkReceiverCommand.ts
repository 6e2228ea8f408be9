/** `sms-emulator check-receiver <url>`: scores a webhook receiver with realistic deliveries; no emulator needed. */

import { writeFileSync } from 'node:fs';
import { type ReceiverReport, checkReceiver } from '../webhooks/checkReceiver.js';
import { receiverCheckNames } from '../webhooks/receiverChecks.js';
import { type CommandLine, UsageError, takeSwitch, takeText } from './commandLine.js';
import type { CommandResult } from './commandResult.js';

export function checkReceiverHelp(): string {
  return `Usage: sms-emulator check-receiver <url> [--state <url with {id}>] [--timeout 5s] [--only a,b | --skip a,b] [--seed s] [--json] [--report page.html]

Posts realistic deliveries to your webhook receiver, as the emulator and a real gateway send them, and scores what
is observable from outside; with --state, also what the receiver holds after each sequence. Needs no emulator
running. Exit status 0 when every check passes, 1 when one fails, 2 for a command line mistake.

Checks: ${receiverCheckNames.join(', ')}.

  --state <url>          the receiver's state hook, {id} (or {clientReference}) standing for the message, such as
                         http://127.0.0.1:4000/sms/{id}: read after each sequence, it answers
                         {"status": "delivered", "notifications": 2} (docs/webhooks.md#the-state-hook)
  --timeout <duration>   how long the receiver may take to answer one post (default 5s, as webhookTimeout)
  --only <names>         run only these checks (comma-separated)
  --skip <names>         run every check but these
  --seed <text>          ids and texts repeat for a seed (default check-receiver)
  --signing-secret <s>   sign each post with Webhook-Signature, as webhookSigningSecret does
  --json                 print the report as JSON instead of the table
  --report <file>        also write a self-contained HTML page of the report
`;
}

function names(line: CommandLine, flag: string): string[] | undefined {
  const text = takeText(line, flag);
  return text === undefined
    ? undefined
    : text
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '');
}

/** The report as a table: pass or fail, the check, why, and what a gateway does next. */
export function receiverReportText(report: ReceiverReport): string {
  const width = Math.max(...report.checks.map((check) => check.name.length), 5);
  const lines = report.checks.map(
    (check) =>
      `${check.passed ? 'pass' : 'FAIL'}  ${check.name.padEnd(width)}  ${check.reason}${check.passed || check.answers.length === 0 ? '' : `\n      ${' '.repeat(width)}  a gateway: ${check.gatewayNext}`}`,
  );
  const failed = report.checks.filter((check) => !check.passed).map((check) => check.name);
  const seen = report.state === undefined ? 'on the answers alone' : 'answers and state';
  const verdict =
    failed.length === 0
      ? `every check passed (${report.checks.length}), ${seen}`
      : `${failed.length} of ${report.checks.length} checks failed: ${failed.join(', ')}`;
  const unseen = report.unseen.map((what) => `not seen: ${what}\n`).join('');
  const state = report.state === undefined ? '' : `, state ${report.state}`;
  return `check-receiver ${report.url} (timeout ${report.timeoutMs} ms${state})\n${report.unreachable === undefined ? '' : `${report.unreachable}\n`}${lines.join('\n')}\n${verdict}\n${unseen}`;
}

export async function checkReceiverCommand(line: CommandLine): Promise<CommandResult> {
  if (line.help) return { stdout: checkReceiverHelp(), stderr: '', exitCode: 0 };
  const timeout = takeText(line, 'timeout');
  const only = names(line, 'only');
  const skip = names(line, 'skip');
  const seed = takeText(line, 'seed');
  const signingSecret = takeText(line, 'signing-secret');
  const state = takeText(line, 'state');
  const reportFile = takeText(line, 'report');
  const json = takeSwitch(line, 'json');
  const [unknown] = line.flags.keys();
  if (unknown !== undefined) throw new UsageError(`unknown flag --${unknown} for check-receiver`);
  const [url, extra] = line.positionals;
  if (url === undefined) throw new UsageError('check-receiver needs the receiver URL');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  if (only !== undefined && skip !== undefined) throw new UsageError('give --only or --skip, not both');
  let report: ReceiverReport;
  try {
    report = await checkReceiver(url, {
      ...(timeout === undefined ? {} : { timeout }),
      ...(only === undefined ? {} : { only }),
      ...(skip === undefined ? {} : { skip }),
      ...(seed === undefined ? {} : { seed }),
      ...(signingSecret === undefined ? {} : { signingSecret }),
      ...(state === undefined ? {} : { state }),
    });
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
  const stdout = json ? `${JSON.stringify(report, null, 2)}\n` : receiverReportText(report);
  if (reportFile !== undefined) {
    const { receiverReportPage } = await import('../ui/receiverReportPage.js');
    try {
      writeFileSync(reportFile, receiverReportPage(report));
    } catch (error) {
      // The run itself is not lost: its table (or JSON) is printed all the same.
      return { stdout, stderr: `sms-emulator: cannot write ${reportFile}: ${(error as Error).message}\n`, exitCode: 1 };
    }
  }
  return { stdout, stderr: '', exitCode: report.passed ? 0 : 1 };
}
