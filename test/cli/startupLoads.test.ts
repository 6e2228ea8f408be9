/** What starting the CLI with its defaults loads: the modules kept for later stay unloaded through the first answer. */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/sms-emulator.js', import.meta.url));
const recorder = fileURLToPath(new URL('../fixtures/scripts/recordLoads.mjs', import.meta.url));
const auth = { authorization: `Basic ${Buffer.from('pk_test_sms_emulator:').toString('base64')}` };

/**
 * Loaded only when used (each is start-up time otherwise): scenario text, patterns, generated texts, TLS, the OpenAPI
 * document, --help, the client commands (`sms-emulator clock advance 1h`), and Node's fetch implementation (the hono adapter, for requests the fast lane does not take).
 */
const lazy = {
  yaml: /node_modules\/yaml\//,
  re2js: /node_modules\/re2js\//,
  faker: /node_modules\/@faker-js\//,
  selfsigned: /node_modules\/selfsigned\//,
  undici: /node_modules\/undici\//,
  'node:https': /^NativeModule https$/,
  'the OpenAPI document': /openapi/,
  'the --help text': /\/help[-.]/,
  'the client commands': /\/(runCommand|commandHelp|commandTable)[-.]/,
  '@hono/node-server': /node_modules\/@hono\/node-server\//,
  'undici (web Request and Response)': /^NativeModule internal\/deps\/undici\/undici$/,
};

function loadedMatching(lines: string[]): string[] {
  return Object.entries(lazy)
    .filter(([, pattern]) => lines.some((line) => pattern.test(line)))
    .map(([name]) => name);
}

test('starting with the defaults and answering the first request loads none of the modules kept for later use', async () => {
  const record = join(mkdtempSync(join(tmpdir(), 'sms-emulator-loads-')), 'loaded.txt');
  const child = spawn(process.execPath, ['--import', recorder, bin, '--port', '0'], {
    env: { ...process.env, RECORD_LOADS: record },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /control API:\s+(http:\/\/\S+)\/_emulator/.exec(output);
        if (match) resolve(match[1] as string);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code} before ready: ${output}`)));
    });
    expect((await fetch(`${origin}/v1/messages/balance`, { headers: auth })).status).toBe(200);
    const atFirstAnswer = readFileSync(record, 'utf8').split('\n');
    // The hook sees the bundled start path load, so an empty record cannot pass for a lean start.
    expect(atFirstAnswer.some((line) => line.endsWith('/dist/cli-bundle/main.js'))).toBe(true);
    expect(loadedMatching(atFirstAnswer)).toEqual([]);
    // And it sees lazy modules once they are used: the control API goes through the hono adapter.
    expect((await fetch(`${origin}/_emulator/openapi.json`)).status).toBe(200);
    expect(loadedMatching(readFileSync(record, 'utf8').split('\n'))).toEqual([
      'the OpenAPI document',
      '@hono/node-server',
    ]);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  // Written on exit: the CommonJS and built-in modules the process loaded.
  const atExit = readFileSync(record, 'utf8').split('\n');
  expect(atExit).toContain('NativeModule http');
  expect(loadedMatching(atExit)).toEqual([
    'the OpenAPI document',
    '@hono/node-server',
    'undici (web Request and Response)',
  ]);
});
