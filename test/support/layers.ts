import type { SourceImport } from './importGraph.js';

/**
 * The map of src/: its layers from the top down, and the one rule for arrows between them. The import-rule test
 * enforces it and CONTRIBUTING.md draws it (a test holds the two together).
 */

export interface Layer {
  /** The layer's name, as the diagram in CONTRIBUTING.md labels its row. */
  name: string;
  /** Folders (`engine`) and top-level files (`emulator.ts`) of src/ that belong to it. */
  members: readonly string[];
}

/**
 * Top first. A module may import from its own layer or any layer below it, never from one above: a lower layer
 * knows nothing of what is built on it. `client/` is stricter still (domain/ only, test/client/standalone.test.ts).
 */
export const layers: readonly Layer[] = [
  { name: 'entries', members: ['index.ts', 'client', 'vitest', 'testing', 'cli', 'parity'] },
  { name: 'wiring', members: ['emulator.ts'] },
  { name: 'http', members: ['http'] },
  { name: 'operations', members: ['control', 'ui', 'mcp'] },
  { name: 'services', members: ['engine', 'webhooks', 'events.ts'] },
  { name: 'data', members: ['state', 'journal'] },
  { name: 'rules', members: ['domain', 'options.ts', 'lazyPackage.ts'] },
];

/** The member of the map a path inside src/ (`engine/core.ts`, `emulator.ts`) belongs to. */
export function memberOf(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? path : path.slice(0, slash);
}

const depth = new Map(layers.flatMap((layer, index) => layer.members.map((member) => [member, index] as const)));

/** Why `from` may not import `to` (paths inside src/), or undefined when the map allows it. */
export function forbiddenArrow(from: string, to: string): string | undefined {
  const [source, target] = [memberOf(from), memberOf(to)];
  const [high, low] = [depth.get(source), depth.get(target)];
  if (high === undefined) return `${source} is on no layer of the map (test/support/layers.ts)`;
  if (low === undefined) return `${target} is on no layer of the map (test/support/layers.ts)`;
  if (low >= high) return undefined;
  return `${source} (${layers[high]?.name}) may not import ${target} (${layers[low]?.name}, a layer above it)`;
}

/** One line for each import that points up a layer (or leaves the map), naming both files and the rule. */
export function upwardImports(imports: readonly SourceImport[]): string[] {
  return imports.flatMap(({ from, to }) => {
    const why = forbiddenArrow(from, to);
    return why === undefined ? [] : [`src/${from} imports src/${to}: ${why}`];
  });
}
