/** The README's tables must tell the truth: every option and every error code, as the code defines them. */

import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { createEmulator, errorCatalogue } from '../src/index.js';
import { envName, flagName, settings } from '../src/options.js';
import { controlTable } from '../src/control/controlTable.js';
import { benchSummary } from '../scripts/benchSummary.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('the README opens with the install-and-start and install-and-test commands', () => {
  const firstBlock = readme.split('```')[1] ?? '';
  expect(firstBlock).toContain('npm ci && npm start');
  expect(firstBlock).toContain('npm ci && npm test');
});

test('the options table has a row for every setting with its flag, environment twin and default', () => {
  for (const [name, setting] of Object.entries(settings)) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row, `row for ${name}`).toBeDefined();
    if (setting.cli) {
      expect(row).toContain(flagName(name as keyof typeof settings));
      expect(row).toContain(envName(name as keyof typeof settings));
    }
    const defaultValue = setting.schema.safeParse(undefined);
    if (defaultValue.success && defaultValue.data !== undefined) expect(row).toContain(`\`${String(defaultValue.data)}\``);
  }
});

test('the error table gives every code with its HTTP status', () => {
  for (const [code, definition] of Object.entries(errorCatalogue)) {
    expect(readme).toMatch(new RegExp(`\\| \`${code}\` \\| ${definition.status} \\|`));
  }
});

test('the control API table is the operations table: every endpoint, its handle members and summary', () => {
  expect(readme, 'the README control table is stale: npm run readme rewrites it').toContain(controlTable());
});

test('the Performance figures are the ones the last npm run bench wrote to bench/RESULTS.md', () => {
  const { written, machine, targets } = benchSummary(readFileSync(new URL('../bench/RESULTS.md', import.meta.url), 'utf8'));
  const performance = readme.slice(readme.indexOf('## Performance'), readme.indexOf('## Development'));
  const stale = 'the README figures differ from bench/RESULTS.md: npm run readme copies them';
  expect(performance, stale).toContain(written);
  expect(performance, stale).toContain(machine);
  expect(performance, stale).toContain(targets);
});

test('every address the README prints on the default origin answers 200 on a running emulator', async () => {
  const printed = [...new Set(readme.match(/http:\/\/127\.0\.0\.1:2727[^\s`|)"';]*/g) ?? [])];
  expect(printed.length).toBeGreaterThanOrEqual(6);
  const emulator = createEmulator({ clock: 'manual' });
  const { origin } = await emulator.listen({ port: 0 });
  const authorization = `Basic ${Buffer.from('pk_test_sms_emulator:').toString('base64')}`;
  try {
    for (const address of printed) {
      const response = await fetch(address.replace('http://127.0.0.1:2727', origin), { headers: { authorization } });
      await response.body?.cancel();
      expect({ address, status: response.status }).toEqual({ address, status: 200 });
    }
  } finally {
    await emulator.close();
  }
});
