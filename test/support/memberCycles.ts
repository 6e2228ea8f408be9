/**
 * Circles in the import graph: between the members of the map (folders and top-level files of src/), which the layer
 * rule alone cannot see inside one layer, and between single modules, which load in an order that depends on who
 * imports first.
 */

import type { SourceImport } from './importGraph.js';
import { memberOf } from './layers.js';

/**
 * One line per group of members that import each other round in a circle: the circle walked from its first member,
 * then one import that draws each of its arrows (`events.ts -> engine -> events.ts: events.ts imports
 * engine/inspection.ts; engine/core.ts imports events.ts`). Members that reach each other by several circles are
 * one group, named by one of its circles: breaking it shows the next.
 */
export function memberCycles(imports: readonly SourceImport[]): string[] {
  return importCycles(imports, memberOf);
}

/** The same for single modules: each file of src/ is its own node (`control/a.ts -> control/b.ts -> control/a.ts: …`). */
export function moduleCycles(imports: readonly SourceImport[]): string[] {
  return importCycles(imports, (path) => path);
}

function importCycles(imports: readonly SourceImport[], nodeOf: (path: string) => string): string[] {
  const arrows = new Map<string, Map<string, SourceImport>>();
  for (const entry of imports) {
    const [from, to] = [nodeOf(entry.from), nodeOf(entry.to)];
    if (from === to) continue;
    const out = arrows.get(from) ?? new Map<string, SourceImport>();
    if (!out.has(to)) out.set(to, entry);
    arrows.set(from, out);
  }
  return stronglyConnected(arrows)
    .filter((group) => group.length > 1)
    .map((group) => {
      const circle = circleThrough(group, arrows);
      const steps = circle.slice(1).map((to, index) => arrows.get(circle[index] as string)?.get(to) as SourceImport);
      return `${circle.join(' -> ')}: ${steps.map((step) => `${step.from} imports ${step.to}`).join('; ')}`;
    });
}

/** Tarjan's strongly connected components, each sorted, in the order of their first member. */
function stronglyConnected(arrows: ReadonlyMap<string, ReadonlyMap<string, unknown>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of arrows.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      group.push(member);
    } while (member !== node);
    groups.push(group.sort());
  };
  for (const node of [...arrows.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** The shortest circle from the group's first member back to it, staying inside the group. */
function circleThrough(group: readonly string[], arrows: ReadonlyMap<string, ReadonlyMap<string, unknown>>): string[] {
  const start = group[0] as string;
  const paths = new Map<string, string[]>([[start, [start]]]);
  const queue = [start];
  for (const node of queue) {
    for (const next of [...(arrows.get(node)?.keys() ?? [])].sort()) {
      if (next === start) return [...(paths.get(node) as string[]), start];
      if (!group.includes(next) || paths.has(next)) continue;
      paths.set(next, [...(paths.get(node) as string[]), next]);
      queue.push(next);
    }
  }
  return [start];
}
