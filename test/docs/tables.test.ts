/** The docs' tables must tell the truth: every option, every error code and every control operation as the code defines them. */

import { expect, test } from 'vitest';
import { createEmulator, errorCatalogue } from '../../src/index.js';
import { envName, flagName, settings } from '../../src/options.js';
import { controlTable } from '../../src/control/controlTable.js';
import { behaviourTable } from '../../src/domain/deliveryBehaviour.js';
import { benchSummary } from '../../scripts/benchSummary.js';
import { docsPage, docsPages, readRepoFile } from '../support/docs.js';

test('the options table has a row for every setting with its flag, environment twin and default', () => {
  const options = docsPage('options.md');
  for (const [name, setting] of Object.entries(settings)) {
    const row = options.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row, `docs/options.md has no row for ${name}`).toBeDefined();
    if (setting.cli) {
      expect(row).toContain(flagName(name as keyof typeof settings));
      expect(row).toContain(envName(name as keyof typeof settings));
    }
    const defaultValue = setting.schema.safeParse(undefined);
    if (defaultValue.success && defaultValue.data !== undefined)
      expect(row).toContain(`\`${String(defaultValue.data)}\``);
  }
});

test('the error table gives every code with its HTTP status', () => {
  const errors = docsPage('errors.md');
  for (const [code, definition] of Object.entries(errorCatalogue)) {
    expect(errors, `docs/errors.md has no row for ${code}`).toMatch(
      new RegExp(`\\| \`${code}\` \\| ${definition.status} \\|`),
    );
  }
});

test('the control API table is the operations table: every endpoint, its handle members and summary', () => {
  expect(
    docsPage('control-api.md'),
    'the control table in docs/control-api.md is stale: npm run docs rewrites it',
  ).toContain(controlTable());
});

test('the delivery behaviours table in docs/webhooks.md is the behaviours table: every name, what it does and imitates', () => {
  expect(
    docsPage('webhooks.md'),
    'the behaviours table in docs/webhooks.md is stale: npm run docs rewrites it',
  ).toContain(behaviourTable());
});

test('the Performance figures are the ones the last npm run bench wrote to bench/RESULTS.md', () => {
  const { written, machine, targets } = benchSummary(readRepoFile('bench/RESULTS.md'));
  const performance = docsPage('performance.md');
  const stale = 'the figures in docs/performance.md differ from bench/RESULTS.md: npm run docs copies them';
  expect(performance, stale).toContain(written);
  expect(performance, stale).toContain(machine);
  expect(performance, stale).toContain(targets);
});

test("the vitest fixture's per-test cost beside msw is the one npm run bench wrote to bench/RESULTS.md, in every page that quotes it (the README too)", () => {
  const { fixture } = benchSummary(readRepoFile('bench/RESULTS.md'));
  expect(fixture.table).toMatch(
    /^\| per test \|[^\n]*\n\|---[^\n]*\n\| Fixture test: send one message, wait for `delivered`, see its webhook \(embedded\) \| [\d.]+ ms \| msw test faking the send [\d.]+ ms \| [\d.]+× \| ≤ 1\.5× \|/,
  );
  for (const page of ['docs/performance.md', 'docs/vitest-and-client.md', 'README.md']) {
    const stale = `the fixture figures in ${page} differ from bench/RESULTS.md: npm run docs copies them`;
    expect(readRepoFile(page), stale).toContain(fixture.written);
    expect(readRepoFile(page), stale).toContain(fixture.table);
  }
});

test('every address the README and docs print on the default origin answers 200 on a running emulator', async () => {
  const text = [readRepoFile('README.md'), ...docsPages().map((name) => docsPage(name))].join('\n');
  const printed = [...new Set(text.match(/http:\/\/127\.0\.0\.1:2727[^\s`|)"';]*/g) ?? [])].filter(
    (address) => !address.includes('<'),
  );
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
