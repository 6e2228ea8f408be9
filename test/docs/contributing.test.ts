/** CONTRIBUTING.md is the map of the code: every file it names exists, so the walks and the glossary cannot drift from src/. */

import { existsSync } from 'node:fs';
import { expect, test } from 'vitest';
import { readRepoFile } from '../support/docs.js';

const root = new URL('../../', import.meta.url);

test('every source file CONTRIBUTING.md names exists (from the repository root, or inside src/)', () => {
  const text = readRepoFile('CONTRIBUTING.md');
  const named = [
    ...new Set([...text.matchAll(/`([\w./-]+\/[\w.-]+\.(?:ts|js|json|yaml))`/g)].map((match) => match[1] as string)),
  ];
  expect(named.length).toBeGreaterThan(20);
  const missing = named.filter((path) => !existsSync(new URL(path, root)) && !existsSync(new URL(`src/${path}`, root)));
  expect(missing, 'CONTRIBUTING.md names files that do not exist: fix the walk or the glossary').toEqual([]);
});
