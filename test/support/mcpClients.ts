/** MCP clients for the tests, on the official SDK: over streamable HTTP to `/_emulator/mcp`, or over stdio to `sms-emulator mcp`. */

import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));

export async function httpClient(
  origin: string,
  options: {
    headers?: Record<string, string>;
    fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
  } = {},
): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/_emulator/mcp`), {
      requestInit: { headers: options.headers ?? {} },
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    }),
  );
  return client;
}

/** Ends the session as a client does when it is done (DELETE), then closes the client. */
export async function endSession(client: Client): Promise<void> {
  await (client.transport as StreamableHTTPClientTransport).terminateSession();
  await client.close();
}

/** `sms-emulator mcp` as an MCP client spawns it (the built bin: `npm run build` first), its own emulator on a free port. */
export async function stdioClient(args: readonly string[] = ['--port', '0']): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], stderr: 'pipe' }),
  );
  return client;
}

/** A tool's answer: its JSON, with `error` set when the tool failed. */
export interface ToolAnswer {
  isError: boolean;
  [field: string]: unknown;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  const [first] = result.content as { type: string; text: string }[];
  return { ...(JSON.parse(first?.text ?? 'null') as object), isError: result.isError === true };
}
