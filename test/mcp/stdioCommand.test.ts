/** `sms-emulator mcp` refusing what it cannot serve, as the built bin (`npm run build` first): exit 2, and standard output left to MCP. */

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));

function mcp(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, 'mcp', ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 15_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

test('sms-emulator mcp refuses --log-requests, whose lines would break its MCP stream, with exit 2 and nothing on stdout', async () => {
  for (const [args, env] of [
    [['--port', '0', '--log-requests'], {}],
    [['--port', '0'], { SMS_EMULATOR_LOG_REQUESTS: 'true' }],
  ] as const) {
    const run = await mcp([...args], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/--log-requests \(SMS_EMULATOR_LOG_REQUESTS\) prints to standard output.*requests_find/);
  }
});

test('sms-emulator mcp with a flag it does not know says so on stderr and exits 2, nothing on stdout', async () => {
  for (const args of [['--bogus'], ['--port', 'abc'], ['--url', 'http://127.0.0.1:1', '--port', '5']]) {
    const run = await mcp(args);
    expect(run.code, args.join(' ')).toBe(2);
    expect(run.stdout, args.join(' ')).toBe('');
    expect(run.stderr, args.join(' ')).toMatch(/^sms-emulator mcp: .*Try: sms-emulator mcp --help\n$/);
  }
});

test('sms-emulator mcp --help names every way to reach an emulator: its own options, --url and --ready-file', async () => {
  const run = await mcp(['--help']);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('sms-emulator mcp [emulator options]');
  expect(run.stdout).toMatch(/sms-emulator mcp --url <origin> \[--control-token <token>\]/);
  expect(run.stdout).toMatch(/sms-emulator mcp --ready-file <path> \[--control-token <token>\]/);
});
