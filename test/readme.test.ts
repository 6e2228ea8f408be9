/** The README's tables must tell the truth: every option and every error code, as the code defines them. */

import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { errorCatalogue } from '../src/index.js';
import { envName, flagName, settings } from '../src/options.js';
import { controlTable } from '../src/control/controlTable.js';

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
