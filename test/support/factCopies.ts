/**
 * Finds copies of shared facts by value, not spelling, in sources read by TypeScript's parser: every list of two or
 * more string literals (an array, a union type, or a chain of comparisons of one expression) whose members all
 * belong to one fact is a copy of that fact, in any order and however few of its members it names; and a single
 * literal can be a copy too, where it states a fact's default or matches a fact's own test (a path under an API prefix).
 */

import ts from 'typescript';

export interface SharedFact {
  /** What the fact is, as a report names it (`the environments`). */
  name: string;
  /** The module that defines it, relative to src/; the only one allowed to list its values. */
  home: string;
  /** Its values, read from that module, so the search follows the source. */
  values: readonly string[];
}

export interface FactCopy {
  file: string;
  line: number;
  /** The literals as written, in their order. */
  members: string[];
  /** The facts the copy fits, by name. */
  fact: string;
}

/** The string literals a node lists, or undefined when it is no list. */
function listed(node: ts.Node): { members: string[]; loose: boolean } | undefined {
  if (ts.isArrayLiteralExpression(node)) return { members: node.elements.flatMap(literal), loose: false };
  if (ts.isUnionTypeNode(node)) {
    return {
      members: node.types.flatMap((type) => (ts.isLiteralTypeNode(type) ? literal(type.literal) : [])),
      loose: false,
    };
  }
  if (isChain(node) && !isChain(node.parent)) {
    const compared = comparisons(node);
    if (compared !== undefined && new Set(compared.map(([subject]) => subject)).size === 1)
      return { members: compared.map(([, value]) => value), loose: true };
  }
  return undefined;
}

const literal = (node: ts.Node): string[] => (ts.isStringLiteralLike(node) ? [node.text] : []);

const equality = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

function isChain(node: ts.Node | undefined): node is ts.BinaryExpression {
  if (node === undefined || !ts.isBinaryExpression(node)) return false;
  const kind = node.operatorToken.kind;
  return kind === ts.SyntaxKind.BarBarToken || kind === ts.SyntaxKind.AmpersandAmpersandToken;
}

/** `x === 'a' || x === 'b'` as [[x, 'a'], [x, 'b']]; undefined when any link is not such a comparison. */
function comparisons(node: ts.Expression): [string, string][] | undefined {
  const inner = ts.isParenthesizedExpression(node) ? node.expression : node;
  if (isChain(inner)) {
    const [left, right] = [comparisons(inner.left), comparisons(inner.right)];
    return left === undefined || right === undefined ? undefined : [...left, ...right];
  }
  if (!ts.isBinaryExpression(inner) || !equality.has(inner.operatorToken.kind)) return undefined;
  const value = [...literal(inner.right), ...literal(inner.left)];
  const subject = ts.isStringLiteralLike(inner.right) ? inner.left : inner.right;
  return value.length === 1 ? [[subject.getText(), value[0] as string]] : undefined;
}

const lineOf = (tree: ts.SourceFile, node: ts.Node): number =>
  tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;

/** Every copy of a fact in one source; a list in the home of a fact it fits is that fact's own. */
export function factCopies(file: string, source: string, facts: readonly SharedFact[]): FactCopy[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const copies: FactCopy[] = [];
  const visit = (node: ts.Node): void => {
    const list = listed(node);
    const distinct = new Set(list?.members);
    if (list !== undefined && distinct.size >= 2) {
      const fits = facts.filter((fact) => [...distinct].every((member) => fact.values.includes(member)));
      if (fits.length > 0 && !fits.some((fact) => fact.home === file))
        copies.push({
          file,
          line: lineOf(tree, node),
          members: list.members,
          fact: fits.map(({ name }) => name).join(' / '),
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return copies;
}

/** The string literals and template pieces of one source that `copies` says state `fact`, with their lines. */
export function literalCopies(
  file: string,
  source: string,
  copies: (text: string) => boolean,
  fact: string,
): FactCopy[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: FactCopy[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) && copies(node.text))
      found.push({ file, line: lineOf(tree, node), members: [node.text], fact });
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

/**
 * Where one source states `value` as a default of its own: after `??` or `||`, as a parameter's or a destructured
 * binding's initial value, or as the argument of a schema's `.default()`.
 */
export function defaultCopies(file: string, source: string, value: string, fact: string): FactCopy[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: FactCopy[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) && node.text === value && isDefault(node))
      found.push({ file, line: lineOf(tree, node), members: [value], fact });
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

function isDefault(node: ts.StringLiteralLike): boolean {
  const parent = node.parent;
  if (ts.isBinaryExpression(parent)) {
    const kind = parent.operatorToken.kind;
    return (
      parent.right === node && (kind === ts.SyntaxKind.QuestionQuestionToken || kind === ts.SyntaxKind.BarBarToken)
    );
  }
  if (ts.isParameter(parent) || ts.isBindingElement(parent)) return parent.initializer === node;
  if (ts.isShorthandPropertyAssignment(parent)) return parent.objectAssignmentInitializer === node;
  return (
    ts.isCallExpression(parent) &&
    ts.isPropertyAccessExpression(parent.expression) &&
    parent.expression.name.text === 'default'
  );
}

/** A list of literals found in a source: where, and its distinct values. */
export interface LiteralList {
  file: string;
  line: number;
  /** The distinct values, sorted: two lists with the same values are one fact written twice. */
  values: string[];
}

/**
 * Every list of two or more distinct string literals in one source, whatever its form: an array, a union type (so
 * `z.enum([…])` too), a chain of comparisons of one expression, the `case` labels of one `switch`, and the keys of a
 * table (an object literal a module-level `const` holds, through `as const` or `satisfies`).
 */
export function literalLists(file: string, source: string): LiteralList[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const lists: LiteralList[] = [];
  const add = (node: ts.Node, members: readonly string[] | undefined): void => {
    const values = [...new Set(members)].sort();
    if (members !== undefined && values.length >= 2) lists.push({ file, line: lineOf(tree, node), values });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isArrayLiteralExpression(node)) add(node, every(node.elements, literal));
    else if (ts.isUnionTypeNode(node) && !namesKeys(node))
      add(
        node,
        every(node.types, (type) => (ts.isLiteralTypeNode(type) ? literal(type.literal) : [])),
      );
    else if (ts.isCaseBlock(node))
      add(
        node,
        node.clauses.flatMap((clause) => (ts.isCaseClause(clause) ? literal(clause.expression) : [])),
      );
    else if (
      ts.isVariableDeclaration(node) &&
      isModuleLevel(node) &&
      node.initializer !== undefined &&
      !keyedByType(node)
    )
      add(node, tableKeys(node.initializer));
    else {
      const chain = listed(node);
      if (chain?.loose) add(node, chain.members);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return lists;
}

/** The literals of every item, or undefined when one item is anything else (a list mixing in a variable is built, not written). */
function every(items: readonly ts.Node[], literals: (node: ts.Node) => string[]): string[] | undefined {
  const found = items.map(literals);
  return found.every((values) => values.length === 1) ? found.flat() : undefined;
}

/** `Pick<T, 'a' | 'b'>`, `Omit<…>`: property names the compiler checks against T, so a typo cannot pass. */
function namesKeys(union: ts.UnionTypeNode): boolean {
  const parent = union.parent;
  return (
    ts.isTypeReferenceNode(parent) &&
    ['Pick', 'Omit'].includes(parent.typeName.getText()) &&
    parent.typeArguments?.[1] === union
  );
}

/**
 * A table whose keys a type checks (declared or `satisfies`): `Record<Name, …>` with a named key type, or any other
 * named type (`OperationTable['health']`), whose properties the table's keys must be.
 */
function keyedByType(declaration: ts.VariableDeclaration): boolean {
  let node: ts.Expression | undefined = declaration.initializer;
  const types: (ts.TypeNode | undefined)[] = [declaration.type];
  while (
    node !== undefined &&
    (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))
  ) {
    if (!ts.isParenthesizedExpression(node)) types.push(node.type);
    node = node.expression;
  }
  const checksKeys = (type: ts.TypeNode | undefined): boolean => {
    if (type === undefined) return false;
    if (ts.isIndexedAccessTypeNode(type)) return true;
    if (!ts.isTypeReferenceNode(type)) return false;
    const name = type.typeName.getText();
    if (name === 'Readonly' || name === 'Partial') return checksKeys(type.typeArguments?.[0]);
    if (name !== 'Record') return name !== 'const';
    const key = type.typeArguments?.[0];
    return key !== undefined && ts.isTypeReferenceNode(key);
  };
  return types.some(checksKeys);
}

function isModuleLevel(declaration: ts.VariableDeclaration): boolean {
  const statement = declaration.parent.parent;
  return ts.isVariableStatement(statement) && ts.isSourceFile(statement.parent);
}

/** The keys of an object literal, seen through `as const`, `satisfies …` and parentheses. */
function tableKeys(node: ts.Expression): string[] | undefined {
  while (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))
    node = node.expression;
  if (!ts.isObjectLiteralExpression(node)) return undefined;
  return every(node.properties, (property) =>
    ts.isPropertyAssignment(property) || ts.isMethodDeclaration(property) || ts.isShorthandPropertyAssignment(property)
      ? ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)
        ? [property.name.text]
        : []
      : [],
  );
}

/** Each set of values listed in two or more files, with every place that lists it: a fact with no one home. */
export function repeatedLists(sources: ReadonlyMap<string, string>): LiteralList[][] {
  const byValues = new Map<string, LiteralList[]>();
  for (const [file, text] of sources)
    for (const list of literalLists(file, text)) {
      const key = JSON.stringify(list.values);
      byValues.set(key, [...(byValues.get(key) ?? []), list]);
    }
  return [...byValues.values()].filter((places) => new Set(places.map(({ file }) => file)).size > 1);
}
