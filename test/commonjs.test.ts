/** A CommonJS project can require() every entry of the package (Node >= 20.19 loads ESM from require) and gets what import() gets. */

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  engines: { node: string };
};
// The entries with code ('.', './client', './vitest'), not './package.json' or the scenario files.
const entries = Object.entries(manifest.exports)
  .filter(([, target]) => typeof target === 'object')
  .map(([subpath]) => `sms-emulator${subpath.slice(1)}`);

// A CommonJS project with the package linked in, as `npm install <folder>` does: fast, and resolved through the real package.json.
const project = mkdtempSync(join(tmpdir(), 'sms-emulator-cjs-'));
mkdirSync(join(project, 'node_modules'));
symlinkSync(root, join(project, 'node_modules', 'sms-emulator'), 'dir');
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'cjs-project', private: true, type: 'commonjs' }));
writeFileSync(
  join(project, 'entries.js'),
  `const entries = ${JSON.stringify(entries)};
(async () => {
  const seen = {};
  for (const entry of entries) {
    const required = Object.keys(require(entry)).sort();
    const imported = Object.keys(await import(entry)).sort();
    seen[entry] = { required, imported };
  }
  console.log(JSON.stringify(seen));
})();
`,
);
afterAll(() => rmSync(project, { recursive: true, force: true }));

test('the package supports the Node versions that can require() ESM, the one this test runs on included', () => {
  expect(manifest.engines.node).toBe('>=20.19');
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  expect(major > 20 || (major === 20 && minor >= 19), process.version).toBe(true);
});

test('every entry with code has a default (require) condition beside import', () => {
  expect(entries).toEqual(['sms-emulator', 'sms-emulator/client', 'sms-emulator/vitest']);
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'object')
      expect(target, subpath).toMatchObject({ default: (target as { import: string }).import });
  }
});

test('a CommonJS project requires every entry and gets the same exports as import()', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--no-warnings', 'entries.js'], { cwd: project });
  const seen = JSON.parse(stdout) as Record<string, { required: string[]; imported: string[] }>;
  for (const entry of entries) {
    expect(seen[entry]?.required.length, entry).toBeGreaterThan(0);
    expect(seen[entry]?.required, entry).toEqual(seen[entry]?.imported);
  }
});

test('a project resolves the test vectors and the bundled scenarios through the exports map, with require and import', async () => {
  const script = `
const resolved = require.resolve('sms-emulator/test-vectors/kit-contract.json');
const contract = require('sms-emulator/test-vectors/kit-contract.json');
import('sms-emulator/test-vectors/signing.json', { with: { type: 'json' } }).then((signing) => {
  console.log(JSON.stringify({
    resolved,
    operations: contract.operations.length,
    signing: typeof signing.default,
    scenario: require.resolve('sms-emulator/scenarios/degraded-api.yaml'),
  }));
});`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--no-warnings', '-e', script], { cwd: project });
  const seen = JSON.parse(stdout) as { resolved: string; operations: number; signing: string; scenario: string };
  // Node resolves the linked package to where it really is: this repository.
  expect(seen.resolved).toBe(join(root, 'test-vectors', 'kit-contract.json'));
  expect(seen.operations).toBeGreaterThan(10);
  expect(seen.signing).toBe('object');
  expect(seen.scenario).toBe(join(root, 'scenarios', 'degraded-api.yaml'));
});
