/** `sms-emulator record --upstream <url> --out <file>`: runs the recording proxy until SIGINT or SIGTERM. */

import { type CommandLine, UsageError, takeText } from './commandLine.js';
import type { CommandResult } from './commandResult.js';
import { isHttp } from '../webhooks/transport.js';
import { maskUrlCredentials } from '../domain/credentials.js';
import { allowedHostSchema } from '../domain/hostNames.js';
import { parseDuration } from '../domain/time.js';
import { formatDuration } from '../parity/formatDuration.js';
import { defaultRecorderBodySize, defaultUpstreamTimeoutMs, startRecorder } from '../parity/recorder.js';

export function recordHelp(): string {
  return `Usage: sms-emulator record --upstream <base-url> --out <file> [--port 0] [--host 127.0.0.1] [--relay <url>]
                           [--webhook-secret <secret>] [--time-zone +02:00] [--upstream-timeout 30s]
                           [--max-body-size <bytes>] [--allowed-hosts <names>]

A recording proxy. Point your app's base URL at the address it prints and your provider's webhook setting at its
webhook address: every request is forwarded to --upstream with the app's own key and headers, every webhook relayed
to --relay, and each request, answer, webhook, receiver answer and inbound reply written to --out as a transcript
(docs/parity.md). Before a key's first request in an environment it reads that key's balance there, so a replay
starts from it. Stops on SIGINT or SIGTERM (Ctrl-C), completing the file: it is written whole when the recording
stops (a temporary file renamed into place), and a second signal while it is written is waited out. It keeps the
emulator's guards: a Host that is not one of its own names is refused (DNS rebinding), a web page's post to its webhook
address is refused and neither relayed nor recorded, and hop-by-hop and proxy headers are not passed on either way.

  --upstream <base-url>     the provider (its base URL, the one your app would use), or another emulator's origin
  --out <file>              the transcript to write (replaced if it exists)
  --port <n>                where to listen (default 0: a free port, printed)
  --host <address>          default 127.0.0.1
  --relay <url>             your webhook receiver: each webhook is passed on there and its answer given back
                            (without it, webhooks are answered 200)
  --webhook-secret <s>      the provider's webhook signing secret: records whether each post's signature is valid
  --time-zone <offset>      the offset times are written in (default +02:00)
  --upstream-timeout <d>    how long the provider (or --relay) may take, whole answer read (default ${formatDuration(defaultUpstreamTimeoutMs)}):
                            past it the app gets 504, recorded as such
  --max-body-size <bytes>   the largest body held each way: a request, an answer, a webhook (default ${defaultRecorderBodySize});
                            reading stops past it (an answer: 502, recorded as such)
  --allowed-hosts <names>   comma-separated host names it answers to besides loopback names and --host
`;
}

export async function recordCommand(line: CommandLine): Promise<CommandResult> {
  if (line.help) return { stdout: recordHelp(), stderr: '', exitCode: 0 };
  const upstream = takeText(line, 'upstream');
  const out = takeText(line, 'out');
  const portText = takeText(line, 'port');
  const host = takeText(line, 'host');
  const relay = takeText(line, 'relay');
  const webhookSecret = takeText(line, 'webhook-secret');
  const timeZone = takeText(line, 'time-zone');
  const timeoutText = takeText(line, 'upstream-timeout');
  const maxBodyText = takeText(line, 'max-body-size');
  const hostsText = takeText(line, 'allowed-hosts');
  const [unknown] = line.flags.keys();
  if (unknown !== undefined) throw new UsageError(`unknown flag --${unknown} for record`);
  if (line.positionals.length > 0) throw new UsageError(`unexpected argument "${line.positionals[0]}"`);
  if (upstream === undefined) throw new UsageError('record needs --upstream <base-url>');
  if (out === undefined) throw new UsageError('record needs --out <file>');
  for (const [flag, value] of [
    ['--upstream', upstream],
    ['--relay', relay],
  ] as const) {
    if (value === undefined) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new UsageError(`${flag} ${JSON.stringify(value)} is not a URL`);
    }
    if (!isHttp(url)) throw new UsageError(`${flag} must be an http or https URL`);
  }
  const port = portText === undefined ? 0 : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError('--port must be a number from 0 to 65535');
  if (timeZone !== undefined && !/^(Z|[+-]\d{2}:\d{2})$/.test(timeZone))
    throw new UsageError('--time-zone must be an offset such as +02:00 or Z');
  const upstreamTimeoutMs = timeoutText === undefined ? undefined : parseDuration(timeoutText);
  if (upstreamTimeoutMs === 0 || (timeoutText !== undefined && upstreamTimeoutMs === undefined))
    throw new UsageError('--upstream-timeout must be a duration of more than 0, such as 30s or 500ms');
  const maxBodySize = maxBodyText === undefined ? undefined : Number(maxBodyText);
  if (maxBodySize !== undefined && !(Number.isSafeInteger(maxBodySize) && maxBodySize > 0))
    throw new UsageError('--max-body-size must be a whole number of bytes, more than 0');
  const allowedHosts = hostsText?.split(',').map((name) => {
    const parsed = allowedHostSchema.safeParse(name.trim());
    if (!parsed.success)
      throw new UsageError(`--allowed-hosts: ${JSON.stringify(name)}: ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  });
  let recorder;
  try {
    recorder = await startRecorder({
      upstream,
      out,
      port,
      ...(host === undefined ? {} : { host }),
      ...(relay === undefined ? {} : { relay }),
      ...(webhookSecret === undefined ? {} : { webhookSecret }),
      ...(timeZone === undefined ? {} : { timeZone }),
      ...(upstreamTimeoutMs === undefined ? {} : { upstreamTimeoutMs }),
      ...(maxBodySize === undefined ? {} : { maxBodySize }),
      ...(allowedHosts === undefined ? {} : { allowedHosts }),
    });
  } catch (error) {
    return { stdout: '', stderr: `sms-emulator: record cannot start: ${(error as Error).message}\n`, exitCode: 1 };
  }
  // Printed at once (the result is printed only when the recording stops): tools read the addresses from here.
  process.stdout.write(
    `sms-emulator record: recording ${maskUrlCredentials(upstream)} to ${out}\n  base URL:    ${recorder.url}   (use it instead of the provider's)\n  webhook URL: ${recorder.webhookUrl}   (give it to the provider)\n`,
  );
  const active = recorder;
  // Listened to until the process ends, not once: a second signal (Ctrl-C twice, `timeout` sending its own) while the
  // transcript is written would otherwise end the process half way through the write.
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.on('SIGINT', () => resolve('SIGINT'));
    process.on('SIGTERM', () => resolve('SIGTERM'));
  });
  process.stderr.write(
    `sms-emulator record: ${signal} received; finishing the requests under way and writing ${out} (another signal is waited out)\n`,
  );
  await active.close();
  return {
    stdout: `sms-emulator record: ${signal} received; wrote ${active.events} events to ${out}\n`,
    stderr: '',
    exitCode: 0,
  };
}
