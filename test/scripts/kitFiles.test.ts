/** The kits' generated surfaces (scripts/kitgen/): what the generators write from the committed contract is on disk, and nothing else claims to be generated. */

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import type { KitContract } from '../../scripts/kitContract.js';
import { generatedKitFiles, generatedMark } from '../../scripts/kitgen/generatedKitFiles.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const committed = JSON.parse(readFileSync(join(root, 'test-vectors/kit-contract.json'), 'utf8')) as KitContract;

/** Build output and installed dependencies of the kits, which are not sources. */
const notSources = new Set(['dist', 'target', 'vendor', 'node_modules', '__pycache__', '.pytest_cache', 'build']);

function kitSources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (notSources.has(entry.name) || entry.name.startsWith('.')) return [];
    const path = join(folder, entry.name);
    return entry.isDirectory() ? kitSources(path) : [path];
  });
}

test('every generated kit file on disk is what scripts/kitgen writes from the committed contract (npm run vectors)', async () => {
  for (const file of await generatedKitFiles(committed))
    expect(readFileSync(join(root, file.path), 'utf8'), `${file.path}: run npm run vectors`).toBe(file.text);
});

test('no file under kits/ says it is generated unless a generator writes it (a removed one is deleted, not left stale)', async () => {
  const generated = new Set((await generatedKitFiles(committed)).map((file) => join(root, file.path)));
  const claiming = kitSources(join(root, 'kits')).filter(
    (path) => !generated.has(path) && readFileSync(path, 'utf8').includes(generatedMark),
  );
  expect(claiming).toEqual([]);
});
