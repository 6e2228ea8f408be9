import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { importGraph } from '../support/importGraph.js';

test('the main entry loads no vitest, so the library works without it; sms-emulator/vitest does', () => {
  expect(importGraph('index.js').packages).not.toContain('vitest');
  expect(importGraph('vitest/index.js').packages).toContain('vitest');
});

test('package.json exports sms-emulator/vitest and declares vitest an optional peer dependency', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  expect(manifest.exports['./vitest']).toEqual({
    types: './dist/vitest/index.d.ts',
    import: './dist/vitest/index.js',
    default: './dist/vitest/index.js',
  });
  expect(manifest.peerDependenciesMeta.vitest.optional).toBe(true);
});
