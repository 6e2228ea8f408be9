/** Follows the imports of modules: a built package entry's, to check what loading it pulls in, and every source file's of src/. */

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const src = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * Every module a file names, read by TypeScript's own parser: imports and re-exports of every form (side-effect
 * `import './x.js'`, `export * from`, type-only), `import x = require()`, dynamic `import()` and `import('…')` types,
 * those in JSDoc included (the inbox's browser modules declare their types that way).
 */
export function specifiers(file: string, source: string): string[] {
  const found: string[] = [];
  const named = (node: ts.Node | undefined): void => {
    if (node !== undefined && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) named(node.moduleSpecifier);
    else if (ts.isExternalModuleReference(node)) named(node.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      named(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) named(node.argument.literal);
    for (const doc of (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? []) visit(doc);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true));
  return found;
}

/** Every module the built file loads, following relative imports; bare specifiers are collected as they are. */
export function importGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of specifiers(file, readFileSync(file, 'utf8'))) {
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

/** Every relative import of every TypeScript and JavaScript file under a source tree (src/ unless another is given). */
export function sourceImports(root: string = src): SourceImport[] {
  const found: SourceImport[] = [];
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' }).sort()) {
    if (!/\.(?:ts|js)$/.test(file)) continue;
    const path = resolve(root, file);
    for (const specifier of specifiers(path, readFileSync(path, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(path), specifier);
      const source = target.replace(/\.js$/, '.ts');
      found.push({ from: relative(root, path), to: relative(root, existsSync(source) ? source : target) });
    }
  }
  return found;
}
