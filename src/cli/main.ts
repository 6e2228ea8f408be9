/** The sms-emulator command: read flags, start, print addresses and credentials, stop on signals. */

import { packageVersion } from '../mcp/packageVersion.js';
import { createEmulator } from '../emulator.js';
import { apiOperations } from '../domain/apiOperations.js';
import { apiPrefixes } from '../domain/environment.js';
import { batchLimitNote, publicOrigin, settings } from '../options.js';
import { maskUrlsInText, maskedCredential } from '../domain/credentials.js';
import { CliError, parseCli } from './args.js';
import { readyInfo, removeReadyFile, writeReadyFile } from './readyInfo.js';
import { watchParent } from './watchParent.js';

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  // A reader that went away (`| head`, a closed pipe) must not turn the next line printed into a crash: drop it.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreClosedPipe);
  // A first word that is not a flag is a client command (`sms-emulator clock advance 1h`): its code loads only then.
  // The MCP server runs until its client goes; it writes MCP alone to standard output.
  if (argv[0] === 'mcp') return (await import('./mcpCommand.js')).mcpCommand(argv.slice(1), process.env);
  if (argv[0] !== undefined && !argv[0].startsWith('-')) {
    const result = await (await import('./runCommand.js')).runCommand(argv, process.env);
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    process.exitCode = result.exitCode;
    return;
  }
  const version = packageVersion();
  let emulator;
  try {
    const request = parseCli(argv, process.env);
    for (const warning of request.warnings) process.stderr.write(`sms-emulator: warning: ${warning}.\n`);
    // Loaded only for --help: it reads defaults through zod's JSON Schema writer, which a start does not need.
    if (request.help) return void process.stdout.write((await import('./help.js')).helpText(version));
    if (request.version) return void process.stdout.write(`${version}\n`);
    emulator = createEmulator(request.options);
  } catch (error) {
    return fail(error instanceof CliError ? `sms-emulator: ${error.message}.` : (error as Error).message);
  }
  let urls;
  try {
    urls = await emulator.listen();
  } catch (error) {
    await emulator.close();
    return fail((error as Error).message);
  }
  const { options } = emulator;
  // Handlers go in before the banner and the ready file: a supervisor may signal as soon as it sees either.
  const json = options.logFormat === 'json';
  const stop = (signal: NodeJS.Signals): void => {
    process.stdout.write(
      json ? `${JSON.stringify({ event: 'stopping', signal })}\n` : `sms-emulator: ${signal} received, stopping.\n`,
    );
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let orphaned = false;
  const parentGone = (fields: Record<string, unknown>, line: string): void => {
    if (orphaned) return;
    orphaned = true;
    process.stderr.write(json ? `${JSON.stringify({ event: 'stopping', ...fields })}\n` : `sms-emulator: ${line}\n`);
    void emulator.close().then(() => process.exit(0));
  };
  const { parentPid } = options;
  if (parentPid !== undefined)
    watchParent(parentPid, () =>
      parentGone(
        { parentPid, reason: 'parent process gone' },
        `the parent process ${parentPid} (--parent-pid) is gone, stopping.`,
      ),
    );
  if (options.parentStdin) {
    // The parent holds the pipe's other end, which the system closes however the parent ends; what it writes is dropped.
    const closed = (): void =>
      parentGone(
        { reason: 'standard input closed' },
        'standard input closed (--parent-stdin): the parent is gone, stopping.',
      );
    process.stdin.on('data', () => {});
    process.stdin.once('end', closed);
    process.stdin.once('error', closed);
  }
  const { readyFile } = options;
  const info = readyInfo(emulator, urls, version);
  if (readyFile !== undefined) {
    try {
      writeReadyFile(readyFile, info);
    } catch (error) {
      await emulator.close();
      return fail((error as Error).message);
    }
    // However the process ends (signal, error, exit), the file goes with it, so a stale one never points at nothing;
    // only while it names this process: another emulator given the same path may have written its own since.
    process.once('exit', () => removeReadyFile(readyFile));
  }
  // Tools read one JSON object instead of parsing the banner.
  if (json) return void process.stdout.write(`${JSON.stringify({ event: 'ready', ...info })}\n`);
  const auth = `${options.apiKey}:`;
  // A secret someone chose is not printed where logs keep it; the default one is documented anyway, and curl users need it.
  const secret =
    options.signingSecret === settings.signingSecret.schema.parse(undefined)
      ? options.signingSecret
      : `${maskedCredential}   (the one given; the ready file has it)`;
  // With publicUrl, every link shows the public origin; the address actually listened on gets its own line.
  const origin = publicOrigin(options) ?? urls.origin;
  process.stdout.write(
    [
      `sms-emulator ${version} is ready`,
      ...(origin === urls.origin ? [] : [`  listening on:     ${urls.origin}`]),
      `  live base URL:    ${origin}   (API paths /v1/messages…)`,
      `  sandbox base URL: ${origin}/sandbox   (API paths /sandbox/v1/messages…)`,
      `  control API:      ${origin}/_emulator`,
      ...(options.ui ? [`  web inbox:        ${origin}/_emulator/ui`] : []),
      `  docs:             ${origin}/_emulator/docs/`,
      ...(emulator.tls
        ? [
            `  TLS certificate:  SHA-256 ${emulator.tls.fingerprint}${emulator.tls.selfSigned ? '   (self-signed, made at start)' : ''}`,
          ]
        : []),
      `  API key:          ${options.apiKey}   (HTTP Basic username, blank password)`,
      `  signing secret:   ${secret}`,
      `  balance:          ${options.balance} credits (live and sandbox)`,
      `  batch limit:      ${batchLimitNote(options.batchLimit)}`,
      `  clock:            ${options.clock}${options.clock === 'realtime' ? ` ×${options.speed}` : ''}   seed: ${emulator.seed}`,
      `  try: curl -u ${auth} ${origin}${apiPrefixes.live}${apiOperations.balance.path}`,
      '',
    ].join('\n'),
  );
}

function ignoreClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
}

function fail(message: string): void {
  process.stderr.write(`${maskUrlsInText(message)}\nRun sms-emulator --help for the flags.\n`);
  process.exitCode = 2;
}
