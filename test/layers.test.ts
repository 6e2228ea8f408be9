/** The map of src/ enforced: no import points up a layer, every part of src/ is on the map, and CONTRIBUTING.md draws the same map. */

import { readFileSync, readdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import { sourceImports } from './support/importGraph.js';
import { forbiddenArrow, layers, memberOf } from './support/layers.js';

const root = new URL('../', import.meta.url);
const parts = readdirSync(new URL('src/', root)).sort();

test('no module of src/ imports from a layer above its own', () => {
  const imports = sourceImports();
  // The walk sees real imports (a downward one, a type-only one, and one of the inbox's browser modules), so an empty result means something.
  expect(imports).toContainEqual({ from: 'engine/core.ts', to: 'domain/time.ts' });
  expect(imports).toContainEqual({ from: 'events.ts', to: 'webhooks/log.ts' });
  expect(imports).toContainEqual({ from: 'ui/public/app.js', to: 'ui/public/store.js' });
  const upward = imports.flatMap(({ from, to }) => {
    const why = forbiddenArrow(from, to);
    return why === undefined ? [] : [`src/${from} imports src/${to}: ${why}`];
  });
  expect(upward).toEqual([]);
});

test('the rule refuses an arrow up a layer and allows one down or sideways', () => {
  expect(forbiddenArrow('engine/control.ts', 'control/list.js')).toBe(
    'engine (services) may not import control (operations, a layer above it)',
  );
  expect(forbiddenArrow('emulator.ts', 'testing/waitFor.js')).toMatch(
    /^emulator\.ts \(wiring\) may not import testing/,
  );
  expect(forbiddenArrow('http/app.ts', 'engine/core.js')).toBeUndefined();
  expect(forbiddenArrow('engine/core.ts', 'webhooks/dispatcher.js')).toBeUndefined();
  expect(forbiddenArrow('newFolder/x.ts', 'domain/time.js')).toMatch(/newFolder is on no layer/);
});

test('every folder and top-level file of src/ is on exactly one layer of the map', () => {
  const members = layers.flatMap((layer) => layer.members);
  expect([...members].sort()).toEqual(parts);
  expect(new Set(members).size).toBe(members.length);
});

test('the layer diagram in CONTRIBUTING.md shows the same layers, in the same order, with the same members', () => {
  const text = readFileSync(new URL('CONTRIBUTING.md', root), 'utf8');
  const section = text.slice(text.indexOf('## The layers'));
  const diagram = section.slice(section.indexOf('```text') + 7, section.indexOf('```', section.indexOf('```text') + 7));
  const names = new Set(layers.map((layer) => layer.name));
  const rows: { name: string; members: string[] }[] = [];
  for (const line of diagram.split('\n')) {
    const label = line.trim().split(/\s+/)[0] ?? '';
    if (names.has(label)) rows.push({ name: label, members: [] });
    // Folders are drawn as `engine/`, files as `emulator.ts`; other words (bin/, file names inside a folder) are not src/ parts.
    for (const [, folder, file] of line.matchAll(/(?<![\w/.-])(?:([a-z]+)\/|([a-zA-Z]+\.ts)\b)/g)) {
      const part = (folder ?? file) as string;
      if (parts.includes(part)) rows.at(-1)?.members.push(memberOf(part));
    }
  }
  expect(rows.map((row) => ({ name: row.name, members: [...new Set(row.members)].sort() }))).toEqual(
    layers.map((layer) => ({ name: layer.name, members: [...layer.members].sort() })),
  );
});
