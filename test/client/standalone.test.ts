import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

/** Every module the built file loads, following relative imports; bare specifiers are collected as they are. */
function importGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
      const specifier = (match[1] ?? match[2]) as string;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(resolve(dist, entry));
  return { files: [...files].map((file) => file.slice(dist.length)).sort(), packages: [...packages].sort() };
}

test('the built sms-emulator/client loads no server code: only Node built-ins and pure domain modules', () => {
  const { files, packages } = importGraph('client/index.js');
  expect(packages.every((name) => name.startsWith('node:'))).toBe(true);
  expect(files.filter((file) => !file.startsWith('client/') && !file.startsWith('domain/'))).toEqual([]);
  expect(files).not.toContain('domain/errors.js');
});

test('package.json exports sms-emulator/client from the built client entry', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  expect(manifest.exports['./client']).toEqual({ types: './dist/client/index.d.ts', import: './dist/client/index.js' });
});
