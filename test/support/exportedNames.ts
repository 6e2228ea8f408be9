/**
 * The names each module of a source tree declares and exports, read with TypeScript's own parser. A re-export
 * (`export { x } from`, `export * from`, or `export { x }` of an imported x) declares nothing: it hands on the name of
 * the module it names. A renaming export (`export { x as y }`, with or without `from`) declares `y`.
 */

import { readFileSync, readdirSync } from 'node:fs';
import ts from 'typescript';

/** Every name `text` declares and exports: `export function x`, `export const x`, `export interface X`, `export { x as y }`. */
export function declaredExports(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const names: string[] = [];
  // `import { X } from …; export { X };` hands X on as a re-export does.
  const imported = new Set<string>();
  for (const statement of source.statements) {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
    if (bindings?.name) imported.add(bindings.name.text);
    const named = bindings?.namedBindings;
    if (named && ts.isNamedImports(named)) for (const element of named.elements) imported.add(element.name.text);
  }
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.exportClause && ts.isNamedExports(statement.exportClause))
        for (const element of statement.exportClause.elements) {
          const original = (element.propertyName ?? element.name).text;
          // `export { a as b }` makes a new name b, whether a is this module's own or handed on from another.
          const renamed = original !== element.name.text;
          const own = statement.moduleSpecifier === undefined && !imported.has(original);
          if (renamed || own) names.push(element.name.text);
        }
      continue;
    }
    const exported = ts.canHaveModifiers(statement)
      ? (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name !== undefined
    )
      names.push(statement.name.text);
  }
  return names;
}

/** Each name declared and exported by more than one module, with those modules: `['LegView', ['a.ts', 'b.ts']]`. */
export function sharedExportNames(sources: ReadonlyMap<string, string>): [string, string[]][] {
  const homes = new Map<string, string[]>();
  for (const [file, text] of sources)
    for (const name of new Set(declaredExports(file, text))) homes.set(name, [...(homes.get(name) ?? []), file]);
  return [...homes].filter(([, files]) => files.length > 1).sort(([a], [b]) => a.localeCompare(b));
}

/** The TypeScript and JavaScript modules under `root`, by path relative to it. */
export function readSources(root: URL): Map<string, string> {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(?:ts|js)$/.test(file));
  return new Map(files.sort().map((file) => [file, readFileSync(new URL(file, root), 'utf8')]));
}
