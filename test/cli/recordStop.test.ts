/** `sms-emulator record` stopping: the transcript is written whole when it stops, and a second stop signal is waited out. */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Resolves with the first match of `pattern` in what `stream` has written so far. */
function printed(stream: NodeJS.ReadableStream, pattern: RegExp): Promise<RegExpExecArray> {
  let text = '';
  return new Promise((resolve) => {
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (match) resolve(match);
    });
  });
}

test('a second SIGTERM while record finishes is waited out: the request under way is answered 504 and the transcript is written whole, with nothing left beside it', async () => {
  // A provider that never answers: the request stays under way until the upstream timeout.
  let arrived!: (request: IncomingMessage) => void;
  const held = new Promise<IncomingMessage>((resolve) => (arrived = resolve));
  server = createServer((request) => arrived(request));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'sms-emulator-record-stop-'));
  const out = join(dir, 'session.jsonl');
  const child = spawn(process.execPath, [
    bin,
    'record',
    '--upstream',
    upstream,
    '--out',
    out,
    '--port',
    '0',
    '--upstream-timeout',
    '1s',
  ]);
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (code, signal) => resolve([code, signal])),
  );
  const [, base] = await printed(child.stdout, /base URL:\s+(http:\/\/\S+)/);
  const answered = fetch(`${base}/v1/messages/balance`).then((answer) => answer.status);
  await held;
  const finishing = printed(child.stderr, /SIGTERM received; finishing/);
  child.kill('SIGTERM');
  await finishing;
  // The transcript is not written until the request under way ends: this one is, and must not cut the write.
  expect(readdirSync(dir)).not.toContain('session.jsonl');
  child.kill('SIGTERM');
  expect(await answered).toBe(504);
  expect(await exited).toEqual([0, null]);
  const lines = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((row) => JSON.parse(row) as { type: string; status?: number });
  expect(lines.map((line) => line.type)).toEqual(['header', 'request', 'answer']);
  expect(lines[2]).toMatchObject({ status: 504 });
  expect(readdirSync(dir)).toEqual(['session.jsonl']);
});

test('record refuses a bad --upstream-timeout, --max-body-size or --allowed-hosts with exit status 2', async () => {
  const { execFile } = await import('node:child_process');
  const run = (...flags: string[]) =>
    new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [bin, 'record', '--upstream', 'http://127.0.0.1:9', '--out', 'x.jsonl', ...flags],
        { timeout: 30_000 },
        (error, _, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      ),
    );
  expect(await run('--upstream-timeout', '0s')).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('--upstream-timeout must be a duration of more than 0'),
  });
  expect(await run('--max-body-size', '1.5')).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('--max-body-size must be a whole number of bytes'),
  });
  expect(await run('--allowed-hosts', 'http://x.example/')).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('--allowed-hosts: "http://x.example/"'),
  });
});
