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

test('a renaming export declares its new name, with or without from, so it cannot dodge the guard', () => {
  const tree = new Map([
    ['domain/message.ts', 'export const deliveryOutcomes = [];'],
    [
      'engine/outcomes.ts',
      "import { deliveryOutcomes } from '../domain/message.js';\nexport { deliveryOutcomes as outcomes };",
    ],
    ['webhooks/log.ts', 'export const outcomes = 1;'],
    ['client/index.ts', "export { webhookStates as states } from '../domain/webhookEvent.js';"],
    ['domain/webhookEvent.ts', 'const webhookStates = [];\nexport { webhookStates, webhookStates as states };'],
  ]);
  expect(sharedExportNames(tree)).toEqual([
    ['outcomes', ['engine/outcomes.ts', 'webhooks/log.ts']],
    ['states', ['client/index.ts', 'domain/webhookEvent.ts']],
  ]);
});
