/**
 * `sms-emulator mcp`: an MCP server over standard input and output for one agent. It starts its own emulator (every
 * option as a flag or variable, as `sms-emulator` takes them) and listens on its port, so the app under test reaches
 * the API; or, with --url, drives an emulator already running. Standard output carries MCP only: the banner goes to
 * standard error.
 */

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { encodeCall } from '../control/call.js';
import { createEmulator } from '../emulator.js';
import { envName, flagName } from '../options.js';
import { docsFiles } from '../http/docsFiles.js';
import type { McpBackend } from '../mcp/mcpBackend.js';
import { createMcpServer } from '../mcp/mcpServer.js';
import { McpSession } from '../mcp/mcpSession.js';
import { packageVersion } from '../mcp/packageVersion.js';
import { httpTransport } from '../testing/connect.js';
import type { TimelineReport } from '../ui/timelineReport.js';
import { CliError, parseCli } from './args.js';
import { UsageError, isHelpFlag, splitCommandLine } from './commandLine.js';
import { targetOf } from './commandTarget.js';

const help = `sms-emulator mcp: an MCP server over stdio, for an agent (Claude, Cursor, any MCP client).

Usage:
  sms-emulator mcp [emulator options]        start an emulator (port 2727 by default) and serve MCP on stdin/stdout
  sms-emulator mcp --url <origin> [--control-token <token>]
                                             serve MCP for an emulator already running
  sms-emulator mcp --ready-file <path> [--control-token <token>]
                                             the same, for the emulator that wrote that ready file

Each session works in its own world (an account, a manual clock, its messages and webhooks); tools come from the
control operations, beside open_world, send_sms, wait_for_message, latest_code, reply, move_clock and timeline.
A running emulator also serves MCP over streamable HTTP at /_emulator/mcp. Docs: docs/mcp.md.
`;

/** A backend that reaches the emulator through `fetch` (in process: emulator.fetch; else HTTP). */
export function fetchBackend(
  origin: string,
  fetch: (request: Request) => Promise<Response>,
  controlToken: string | undefined,
): McpBackend {
  const transport = httpTransport(origin, { fetch, ...(controlToken === undefined ? {} : { controlToken }) });
  return {
    call: (op, args) => {
      const request = encodeCall(op.method, op.path, op.args, args);
      return transport(request.method, request.path, request.query, request.body);
    },
    api: (path, init) => fetch(new Request(`${origin}${path}`, init)),
    origin: () => origin,
    report: async (account) =>
      (await transport('GET', '/report', { account, format: 'json' }, undefined)) as TimelineReport,
    docs: docsFiles,
  };
}

export async function mcpCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  if (argv.some(isHelpFlag)) return void process.stdout.write(help);
  let backend: McpBackend;
  let stop = async (): Promise<void> => {};
  try {
    if (argv.some((arg) => arg === '--url' || arg.startsWith('--url=') || arg.startsWith('--ready-file'))) {
      const line = splitCommandLine(argv);
      const target = targetOf(line, env);
      const [extra] = [...line.positionals, ...[...line.flags.keys()].map((flag) => `--${flag}`)];
      if (extra !== undefined)
        throw new UsageError(`unexpected argument "${extra}" (with --url, mcp takes only the connection flags)`);
      backend = fetchBackend(target.origin, target.fetch, target.controlToken);
    } else {
      const request = parseCli(argv, env);
      for (const warning of request.warnings) process.stderr.write(`sms-emulator: warning: ${warning}.\n`);
      if (request.options.logRequests === true)
        throw new UsageError(
          `--${flagName('logRequests')} (${envName('logRequests')}) prints to standard output, which carries MCP only under mcp: read the request journal with the requests_find tool instead`,
        );
      // Off even when a scenario's options turn it on: a log line on standard output would break the MCP stream.
      const emulator = createEmulator({ ...request.options, logRequests: false });
      const urls = await emulator.listen();
      backend = fetchBackend(urls.origin, emulator.fetch, emulator.options.controlToken);
      stop = () => emulator.close();
      process.stderr.write(
        `sms-emulator: MCP on stdio; the emulator listens on ${urls.origin} (API ${urls.live}/v1)\n`,
      );
    }
  } catch (error) {
    const usage = error instanceof UsageError || error instanceof CliError;
    process.stderr.write(
      `sms-emulator mcp: ${(error as Error).message}${usage ? '. Try: sms-emulator mcp --help' : ''}\n`,
    );
    process.exitCode = 2;
    return;
  }
  const session = new McpSession(backend);
  const server = createMcpServer(session, packageVersion());
  const transport = new StdioServerTransport();
  // The client closing stdin ends the session: its world goes, then the emulator this command started.
  const end = async (): Promise<void> => {
    await session.close();
    await stop();
  };
  transport.onclose = () => void end();
  process.stdin.once('end', () => void server.close());
  await server.connect(transport);
}
