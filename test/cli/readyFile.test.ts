import { spawn, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { createEmulator } from '../../src/index.js';
import { readyInfoSchema } from '../../src/domain/readyInfo.js';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));

/** Resolves once `file` exists in its (fresh) directory. */
function appears(directory: string, file: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(directory, () => {
      if (existsSync(file)) {
        watcher.close();
        resolve();
      }
    });
  });
}

test('--ready-file writes the URLs and credentials as JSON once listening, and the file goes on SIGTERM', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'ready-test-'));
  const file = join(directory, 'ready.json');
  const written = appears(directory, file);
  const child = spawn(process.execPath, [bin, '--port', '0', '--ready-file', file, '--api-key', 'pk_ready'], {
    stdio: 'ignore',
  });
  await written;
  const info = JSON.parse(readFileSync(file, 'utf8'));
  expect(info).toMatchObject({
    name: 'sms-emulator',
    pid: child.pid,
    apiKey: 'pk_ready',
    signingSecret: 'sk_test_sms_emulator',
    controlTokenRequired: false,
  });
  // The schema the kit contract publishes holds it whole, with no field it does not list.
  expect(readyInfoSchema.safeParse(info).error).toBeUndefined();
  expect(info).not.toHaveProperty('tls');
  expect(info).not.toHaveProperty('publicUrl');
  expect(info.live).toBe(info.origin);
  expect(info.control).toBe(`${info.origin}/_emulator`);
  expect((await fetch(`${info.control}/health`)).status).toBe(200);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  expect(existsSync(file)).toBe(false);
});

test('with --tls and --public-url the ready file carries the certificate (fingerprint, PEM) and the public origin', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'ready-test-'));
  const file = join(directory, 'ready.json');
  const written = appears(directory, file);
  const args = [bin, '--port', '0', '--ready-file', file, '--tls', '--public-url', 'https://sms.example.test'];
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  await written;
  const info = JSON.parse(readFileSync(file, 'utf8'));
  expect(info.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(info.publicUrl).toBe('https://sms.example.test');
  expect(readyInfoSchema.safeParse(info).error).toBeUndefined();
  expect(info.tls).toEqual({
    fingerprint: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
    selfSigned: true,
    cert: expect.stringContaining('BEGIN CERTIFICATE'),
  });
  expect(new X509Certificate(info.tls.cert).fingerprint256).toBe(info.tls.fingerprint);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
});

test('a ready file that cannot be written stops the start with a clear error', () => {
  const result = spawnSync(process.execPath, [bin, '--port', '0', '--ready-file', '/nonexistent-dir/ready.json'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  expect(result.status).toBe(2);
  expect(result.stderr).toContain('cannot write the ready file /nonexistent-dir/ready.json');
});

test('--log-format json prints the banner as one JSON object with the ready file fields, and the stop as another', async () => {
  const child = spawn(process.execPath, [bin, '--port', '0', '--log-format', 'json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const firstLine = new Promise<string>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(output.slice(0, output.indexOf('\n')));
    }),
  );
  const banner = JSON.parse(await firstLine);
  expect(banner).toMatchObject({
    event: 'ready',
    name: 'sms-emulator',
    pid: child.pid,
    apiKey: 'pk_test_sms_emulator',
  });
  expect((await fetch(`${banner.control}/health`)).status).toBe(200);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  expect(
    output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).event),
  ).toEqual(['ready', 'stopping']);
});

test('the batch limit that applies is in the ready file, the banner and /_emulator, with why', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'ready-test-'));
  const file = join(directory, 'ready.json');
  const written = appears(directory, file);
  let banner = '';
  const child = spawn(process.execPath, [bin, '--port', '0', '--ready-file', file, '--batch-limit', '100']);
  const printed = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      banner += chunk.toString('utf8');
      if (banner.includes('try: curl')) resolve();
    }),
  );
  await Promise.all([written, printed]);
  const info = JSON.parse(readFileSync(file, 'utf8'));
  try {
    expect(info.batchLimit).toBe(100);
    expect(info.batchLimitNote).toMatch(/^100 recipients per request \(set with batchLimit .*500.*100/);
    expect(banner).toContain(`batch limit:      ${info.batchLimitNote}`);
    expect(await (await fetch(info.control)).text()).toContain('Batch limit: 100 recipients per request');
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  const defaults = createEmulator();
  const landing = await (await defaults.fetch(new Request('http://127.0.0.1/_emulator'))).text();
  expect(landing).toContain('Batch limit: 500 recipients per request (the default: the spec states 500');
});

test('two emulators given one --ready-file: the first to stop leaves the file that names the other, which removes it', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'ready-test-'));
  const file = join(directory, 'ready.json');
  const start = async (): Promise<ReturnType<typeof spawn>> => {
    const child = spawn(process.execPath, [bin, '--port', '0', '--ready-file', file], { stdio: 'ignore' });
    await namedBy(directory, file, child.pid as number);
    return child;
  };
  const stop = (child: ReturnType<typeof spawn>): Promise<unknown> => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    return exited;
  };
  const first = await start();
  const second = await start();
  await stop(first);
  expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(second.pid);
  await stop(second);
  expect(existsSync(file)).toBe(false);
  // Nothing of either is left beside it (no temporary or claimed file).
  expect(readdirSync(directory)).toEqual([]);
});

/** Resolves once `file` (in its fresh directory) names the process `pid`. */
function namedBy(directory: string, file: string, pid: number): Promise<void> {
  const names = (): boolean => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')).pid === pid;
    } catch {
      return false;
    }
  };
  return new Promise((resolve) => {
    const watcher = watch(directory, () => {
      if (names()) {
        watcher.close();
        resolve();
      }
    });
    if (names()) {
      watcher.close();
      resolve();
    }
  });
}
