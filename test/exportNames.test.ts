/** One meaning per name: no two modules of src/ export the same name, so an import or a search finds one thing. */

import { expect, test } from 'vitest';
import { declaredExports, readSources, sharedExportNames } from './support/exportedNames.js';

const sources = readSources(new URL('../src/', import.meta.url));

test('no two modules of src/ declare and export the same name', () => {
  // The walk reads real declarations (an interface, a function, a const), so an empty result means something.
  expect(declaredExports('x.ts', sources.get('domain/messageView.ts') ?? '')).toContain('MessageView');
  expect(declaredExports('x.ts', sources.get('domain/time.ts') ?? '')).toContain('parseDuration');
  expect(sharedExportNames(sources)).toEqual([]);
});

test('the guard names a name two modules export, of every kind of declaration, and lets a re-export pass', () => {
  const tree = new Map([
    ['engine/inspection.ts', 'export interface LegView { status: string }\nexport const page = 1;'],
    ['domain/representation.ts', 'interface LegView { recipient: string }\nexport { LegView };'],
    ['client/query.ts', 'export type ListQuery = { page?: number };\nexport function page() {}'],
    ['engine/messages.ts', 'export class ListQuery {}'],
    ['index.ts', "export type { LegView } from './engine/inspection.js';\nexport * from './client/query.js';"],
    ['client/types.ts', "import type { ListQuery } from '../engine/messages.js';\nexport type { ListQuery };"],
  ]);
  expect(sharedExportNames(tree)).toEqual([
    ['LegView', ['engine/inspection.ts', 'domain/representation.ts']],
    ['ListQuery', ['client/query.ts', 'engine/messages.ts']],
    ['page', ['engine/inspection.ts', 'client/query.ts']],
  ]);
});
