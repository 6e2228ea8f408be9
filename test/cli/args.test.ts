/** Reading flags and environment variables: errors name what the user typed, stray variables are reported, --help shows defaults. */

import { expect, test } from 'vitest';
import { tmpdir } from 'node:os';
import { parseCli } from '../../src/cli/args.js';
import { helpText } from '../../src/cli/help.js';
import { createEmulator } from '../../src/index.js';

test('a bad value, from a flag or from its environment variable, is reported under both names', () => {
  expect(() => parseCli([], { SMS_EMULATOR_PORT: 'abc' })).toThrow(/^--port \(SMS_EMULATOR_PORT\): /);
  expect(() => parseCli(['--error-envelope=x'], {})).toThrow(
    /^--error-envelope \(SMS_EMULATOR_ERROR_ENVELOPE\): .*bare.*wrapped/,
  );
  expect(() => parseCli(['--port', '-3'], {})).toThrow(/^--port \(SMS_EMULATOR_PORT\): /);
  expect(() => parseCli([], { SMS_EMULATOR_ALLOWED_HOSTS: 'ok.test,bad host' })).toThrow(
    /^--allowed-hosts \(SMS_EMULATOR_ALLOWED_HOSTS\): item 2: expected a host name/,
  );
});

test('an SMS_EMULATOR_ variable that names no setting is reported as a warning, not ignored silently', () => {
  const request = parseCli([], { SMS_EMULATOR_PROT: '3000', SMS_EMULATOR_PORT: '0', PATH: '/bin' });
  expect(request.warnings).toEqual([expect.stringContaining('SMS_EMULATOR_PROT is not a setting')]);
  expect(request.options.port).toBe(0);
});

test("SMS_EMULATOR_URL, the client commands' variable, is known: set for a whole CI job, it does not warn at start", () => {
  expect(parseCli([], { SMS_EMULATOR_URL: 'http://127.0.0.1:2727' }).warnings).toEqual([]);
});

test('--help prints each flag’s default and allowed values', () => {
  const help = helpText('1.0.0');
  expect(help).toContain('env SMS_EMULATOR_PORT; default 2727');
  expect(help).toContain('default bare; one of: bare, wrapped');
  expect(help).toContain('env SMS_EMULATOR_REQUEST_JOURNAL_LIMIT; default 10000');
});

test('a bundled scenario can be named without its path, from any directory', () => {
  const cwd = process.cwd();
  try {
    process.chdir(tmpdir());
    expect(createEmulator({ scenario: 'flaky-network', clock: 'manual' }).scenario.get().description).toMatch(/90%/);
  } finally {
    process.chdir(cwd);
  }
});
