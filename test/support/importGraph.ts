/** Follows the imports of modules: a built package entry's, to check what loading it pulls in, and every source file's of src/. */

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const src = fileURLToPath(new URL('../../src/', import.meta.url));

/** Static, dynamic and type-only imports and re-exports, with `import('…')` types in JSDoc and declarations. */
const importPattern = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function specifiers(source: string): string[] {
  return [...source.matchAll(importPattern)].map((match) => (match[1] ?? match[2]) as string);
}

/** Every module the built file loads, following relative imports; bare specifiers are collected as they are. */
export function importGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const specifier of specifiers(source)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(resolve(dist, entry));
  return { files: [...files].map((file) => file.slice(dist.length)).sort(), packages: [...packages].sort() };
}

export interface SourceImport {
  /** The importing file, relative to src/ (`engine/core.ts`). */
  from: string;
  /** The imported file, relative to src/ (the `.ts` file a `.js` specifier names). */
  to: string;
}

/** Every relative import of every TypeScript and JavaScript file under src/. */
export function sourceImports(): SourceImport[] {
  const found: SourceImport[] = [];
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!/\.(?:ts|js)$/.test(file)) continue;
    const path = resolve(src, file);
    for (const specifier of specifiers(readFileSync(path, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(path), specifier);
      const source = target.replace(/\.js$/, '.ts');
      found.push({ from: relative(src, path), to: relative(src, existsSync(source) ? source : target) });
    }
  }
  return found;
}
