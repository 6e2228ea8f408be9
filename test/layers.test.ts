/** The map of src/ enforced: no import points up a layer, no members import each other round in a circle, every part of src/ is on the map, and CONTRIBUTING.md draws the same map. */

import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { sourceImports } from './support/importGraph.js';
import { forbiddenArrow, layers, memberOf, upwardImports } from './support/layers.js';
import { memberCycles, moduleCycles } from './support/memberCycles.js';

const root = new URL('../', import.meta.url);
const parts = readdirSync(new URL('src/', root)).sort();
const fixture = (name: string) => sourceImports(fileURLToPath(new URL(`test/fixtures/layers/${name}/src/`, root)));

test('no module of src/ imports from a layer above its own', () => {
  const imports = sourceImports();
  // The walk sees real imports (a downward one, a type-only one, a side-effect one, and one of the inbox's browser modules), so an empty result means something.
  expect(imports).toContainEqual({ from: 'engine/core.ts', to: 'domain/time.ts' });
  expect(imports).toContainEqual({ from: 'engine/publicEvents.ts', to: 'events.ts' });
  expect(imports).toContainEqual({ from: 'ui/public/app.js', to: 'ui/public/store.js' });
  expect(upwardImports(imports)).toEqual([]);
});

test('no two members of the map import each other, however many steps round', () => {
  expect(memberCycles(sourceImports())).toEqual([]);
});

test('no module of src/ imports itself back through others', () => {
  expect(moduleCycles(sourceImports())).toEqual([]);
});

test('two modules of one folder that import each other (a type-only import counts) are named as a circle', () => {
  const imports = fixture('module-cycle');
  expect(memberCycles(imports)).toEqual([]);
  expect(moduleCycles(imports)).toEqual([
    'control/operationTable.ts -> control/operations.ts -> control/operationTable.ts: control/operationTable.ts imports control/operations.ts; control/operations.ts imports control/operationTable.ts',
  ]);
});

test('an import up a layer made only for its side effect is refused', () => {
  expect(upwardImports(fixture('side-effect'))).toEqual([
    'src/domain/rule.ts imports src/engine/service.ts: domain (rules) may not import engine (services, a layer above it)',
  ]);
});

test('a re-export of a whole module up a layer is refused', () => {
  expect(upwardImports(fixture('export-star'))).toEqual([
    'src/state/store.ts imports src/http/app.ts: state (data) may not import http (http, a layer above it)',
  ]);
});

test('two members of one layer that import each other are named as a circle, with one import for each arrow', () => {
  const imports = fixture('folder-cycle');
  expect(upwardImports(imports)).toEqual([]);
  expect(memberCycles(imports)).toEqual([
    'engine -> events.ts -> engine: engine/core.ts imports events.ts; events.ts imports engine/view.ts',
  ]);
});

test('a circle through three members is found and walked in order', () => {
  const imports = [
    { from: 'engine/a.ts', to: 'webhooks/b.ts' },
    { from: 'webhooks/b.ts', to: 'events.ts' },
    { from: 'events.ts', to: 'engine/c.ts' },
    { from: 'engine/c.ts', to: 'domain/d.ts' },
  ];
  expect(memberCycles(imports)).toEqual([
    'engine -> webhooks -> events.ts -> engine: engine/a.ts imports webhooks/b.ts; webhooks/b.ts imports events.ts; events.ts imports engine/c.ts',
  ]);
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
