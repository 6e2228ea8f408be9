/** Turns scenario text (YAML or JSON) into a validated scenario, with errors that point at the line. */

import { lazyPackage } from '../../lazyPackage.js';
import type { z } from 'zod';
import { parseOnce } from '../../domain/issues.js';
import { type Scenario, scenarioSchema } from './schema.js';

/** A scenario that cannot be used; the message names the source, the place and what is allowed. */
export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_value' && 'values' in issue)
    return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
  if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_union') {
    // Name the allowed words when one branch is a list of them (the usual typo), else point at the schema.
    const words = issue.errors.flat().find((branch) => branch.code === 'invalid_value' && branch.path.length === 0);
    const allowed =
      words && 'values' in words ? `one of ${words.values.map((value) => JSON.stringify(value)).join(', ')} or ` : '';
    return `expected ${allowed}an object of an allowed form (see scenarios/scenario.schema.json)`;
  }
  return issue.message;
}

/** Deepest nesting a scenario text may have: real ones use under 10 levels, and the YAML parser recurses per level. */
export const maxScenarioDepth = 64;
/** Most aliases a scenario may expand (the yaml package's guard against alias bombs). */
const maxAliasCount = 100;

/**
 * Why the text nests too deeply to parse safely, found with the YAML lexer (which does not recurse):
 * flow brackets, `-`/`?` indicators on one line, and indentation each stand for levels.
 */
function nestingProblem(text: string, yaml: typeof import('yaml')): string | undefined {
  let flow = 0;
  let indicators = 0;
  let lineStart = true;
  for (const token of new yaml.Lexer().lex(text)) {
    if (token === '\n' || token === '\r\n') {
      indicators = 0;
      lineStart = true;
      continue;
    }
    if (lineStart && /^[ \t]+$/.test(token) && token.length > maxScenarioDepth * 4)
      return `indented deeper than ${maxScenarioDepth * 4} columns`;
    lineStart = false;
    if (token === '{' || token === '[') flow += 1;
    else if (token === '}' || token === ']') flow = Math.max(0, flow - 1);
    else if (token === '-' || token === '?') indicators += 1;
    if (flow > maxScenarioDepth || indicators > maxScenarioDepth)
      return `nested deeper than ${maxScenarioDepth} levels`;
  }
  return undefined;
}

/** Parses and validates; `source` names the file (or "scenario") in every message; `schema` is an account's own scenario's, or the file format's. */
export function parseScenario<S extends z.ZodType = typeof scenarioSchema>(
  text: string,
  source: string,
  schema: S = scenarioSchema as unknown as S,
): z.output<S> {
  const yaml = lazyPackage('yaml');
  const tooDeep = nestingProblem(text, yaml);
  if (tooDeep) throw new ScenarioError(`${source}: not usable YAML or JSON: ${tooDeep}`);
  const lineCounter = new yaml.LineCounter();
  const document = yaml.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    const error = document.errors[0]!;
    const position = lineCounter.linePos(error.pos[0]);
    throw new ScenarioError(
      `${source}:${position.line}:${position.col}: not valid YAML or JSON: ${error.message.split('\n')[0]}`,
    );
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount });
  } catch (error) {
    // An unresolved alias, or more alias expansions than maxAliasCount (an alias bomb).
    throw new ScenarioError(`${source}: not usable YAML: ${(error as Error).message}`);
  }
  return validateScenario(
    value,
    source,
    (path) => {
      const node = document.getIn(path, true) as { range?: [number, number, number] } | undefined;
      if (!node?.range) return undefined;
      return lineCounter.linePos(node.range[0]);
    },
    schema,
  );
}

/** Validates a scenario object; `locate` maps a path to a line and column when the source is text. */
export function validateScenario<S extends z.ZodType = typeof scenarioSchema>(
  input: unknown,
  source: string,
  locate: (path: (string | number)[]) => { line: number; col: number } | undefined = () => undefined,
  schema: S = scenarioSchema as unknown as S,
): z.output<S> {
  const result = schema.safeParse(input, parseOnce);
  if (result.success) return result.data;
  const lines = result.error.issues.slice(0, 10).map((issue) => {
    const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
    // The deepest place the source has a node for is the best pointer to the mistake.
    let position: { line: number; col: number } | undefined;
    for (let depth = path.length; depth >= 0 && !position; depth--) position = locate(path.slice(0, depth));
    const where = position ? `${source}:${position.line}:${position.col}` : source;
    const name =
      path.length > 0
        ? path
            .map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`))
            .join('')
            .replace(/^\./, '')
        : '(top level)';
    return `${where}: ${name}: ${describe(issue)}`;
  });
  throw new ScenarioError(lines.join('\n'));
}

/** A scenario with nothing in it: every list empty. */
export function emptyScenario(): Scenario {
  return { version: 1, accounts: [], clocks: [], rules: [], replies: [], faults: [], webhooks: [], timeline: [] };
}

/** Later scenarios extend earlier ones: options, accounts (by key) and clocks (by id) are overridden, lists are appended. */
export function mergeScenarios(scenarios: readonly Scenario[]): Scenario {
  const merged = emptyScenario();
  for (const scenario of scenarios) {
    if (scenario.description)
      merged.description = merged.description ? `${merged.description}; ${scenario.description}` : scenario.description;
    if (scenario.options) merged.options = { ...merged.options, ...scenario.options };
    if (scenario.magicNumbers !== undefined) merged.magicNumbers = scenario.magicNumbers;
    for (const account of scenario.accounts) {
      const index = merged.accounts.findIndex((existing) => existing.apiKey === account.apiKey);
      if (index < 0) merged.accounts.push(account);
      else merged.accounts[index] = { ...merged.accounts[index], ...account };
    }
    for (const clock of scenario.clocks) {
      const index = merged.clocks.findIndex((existing) => existing.id === clock.id);
      if (index < 0) merged.clocks.push(clock);
      else merged.clocks[index] = { ...merged.clocks[index], ...clock };
    }
    merged.rules.push(...scenario.rules);
    merged.replies.push(...scenario.replies);
    merged.faults.push(...scenario.faults);
    merged.webhooks.push(...scenario.webhooks);
    merged.timeline.push(...scenario.timeline);
  }
  return merged;
}
