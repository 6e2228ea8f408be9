import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { importGraph } from '../support/importGraph.js';

test('the built sms-emulator/client loads no server code: only Node built-ins and pure domain modules', () => {
  const { files, packages } = importGraph('client/index.js');
  expect(packages.every((name) => name.startsWith('node:'))).toBe(true);
  expect(files.filter((file) => !file.startsWith('client/') && !file.startsWith('domain/'))).toEqual([]);
  expect(files).not.toContain('domain/errors.js');
});

test('package.json exports sms-emulator/client from the built client entry', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  expect(manifest.exports['./client']).toEqual({
    types: './dist/client/index.d.ts',
    import: './dist/client/index.js',
    default: './dist/client/index.js',
  });
});
