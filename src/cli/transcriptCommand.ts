/** `sms-emulator transcript`: a running emulator's journal, webhook log and replies for one account, as a transcript. */

import { writeFileSync } from 'node:fs';
import { connect } from '../testing/connect.js';
import { emulatorTranscript } from '../parity/emulatorTranscript.js';
import { type CommandLine, UsageError, takeText } from './commandLine.js';
import type { CommandResult } from './commandResult.js';
import { targetOf } from './commandTarget.js';

export function transcriptHelp(): string {
  return `Usage: sms-emulator transcript [--account <key>] [--out <file>] [--url <origin> | --ready-file <path>]

Reads a running emulator's request journal, webhook log and inbound replies for one account through the control API
and prints them as a transcript (JSON Lines, docs/parity.md): one line per request, answer, webhook try, receiver
answer and reply, ids, references and times as placeholders. Replay it with sms-emulator parity diff.

  --account <key>     whose session (default: the account of the first journaled request)
  --out <file>        write the transcript to this file instead of standard output
  --url <origin>      the emulator (default http://127.0.0.1:2727; env SMS_EMULATOR_URL)
  --ready-file <path> read the origin from the emulator's ready file
  --control-token <t> the emulator's --control-token, when it has one
`;
}

export async function transcriptCommand(line: CommandLine, env: NodeJS.ProcessEnv): Promise<CommandResult> {
  if (line.help) return { stdout: transcriptHelp(), stderr: '', exitCode: 0 };
  const account = takeText(line, 'account');
  const out = takeText(line, 'out');
  const target = targetOf(line, env);
  const [unknown] = line.flags.keys();
  if (unknown !== undefined) throw new UsageError(`unknown flag --${unknown} for transcript`);
  if (line.positionals.length > 0) throw new UsageError(`unexpected argument "${line.positionals[0]}"`);
  const handle = connect(target.origin, {
    fetch: target.fetch,
    ...(target.controlToken === undefined ? {} : { controlToken: target.controlToken }),
  });
  const text = await emulatorTranscript(handle, account === undefined ? {} : { account });
  if (out === undefined) return { stdout: text, stderr: '', exitCode: 0 };
  try {
    writeFileSync(out, text);
  } catch (error) {
    return { stdout: '', stderr: `sms-emulator: cannot write ${out}: ${(error as Error).message}\n`, exitCode: 1 };
  }
  const lines = text.split('\n').length - 1;
  return { stdout: '', stderr: `sms-emulator: wrote ${lines} lines to ${out}\n`, exitCode: 0 };
}
