/**
 * One home per shared fact: the values of each list (environments, statuses, delivery outcomes, webhook states, API
 * operations, …) are written once in src/, where CONTRIBUTING.md says they live. Copies are found by value, not
 * spelling (test/support/factCopies.ts): reordered, a subset, as an array, a union type or a chain of comparisons.
 */

import { readFileSync, readdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import { apiOperations } from '../src/domain/apiOperations.js';
import { apiPrefixes, defaultEnvironment, environments } from '../src/domain/environment.js';
import { deliveryOutcomes, shownStatuses } from '../src/domain/message.js';
import { maximumLead, minimumLead } from '../src/domain/scheduleWindow.js';
import { webhookStates } from '../src/domain/webhookEvent.js';
import { networkFaultKinds } from '../src/engine/scenario/networkFaults.js';
import { incidentOutcomes } from '../src/state/clock.js';
import { scopes } from '../src/state/store.js';
import {
  type FactCopy,
  type LiteralList,
  type SharedFact,
  defaultCopies,
  factCopies,
  literalCopies,
  repeatedLists,
} from './support/factCopies.js';
import { deliveryBehaviourNames } from '../src/domain/deliveryBehaviour.js';

const root = new URL('../', import.meta.url);
const src = new URL('src/', root);

/** The listed facts, their homes, and their values as the source has them. */
const facts: readonly SharedFact[] = [
  { name: 'the environments', home: 'domain/environment.ts', values: environments },
  { name: 'the leg and message statuses', home: 'domain/message.ts', values: shownStatuses },
  { name: 'the delivery outcomes', home: 'domain/message.ts', values: deliveryOutcomes },
  { name: 'the webhook states', home: 'domain/webhookEvent.ts', values: webhookStates },
  {
    name: 'the public API operations',
    home: 'domain/apiOperations.ts',
    values: Object.entries(apiOperations).flatMap(([name, operation]) => [name, operation.operationId]),
  },
  { name: 'the key scopes', home: 'state/store.ts', values: scopes },
  { name: 'the clock incident outcomes', home: 'state/clock.ts', values: incidentOutcomes },
  { name: 'the network fault kinds', home: 'engine/scenario/networkFaults.ts', values: networkFaultKinds },
  { name: 'the delivery behaviours', home: 'domain/deliveryBehaviour.ts', values: deliveryBehaviourNames },
];

/** A path under an API prefix, or a leading part of one (`/sandbox/`, an environment's base), names the prefix. */
const prefixSegments = Object.values(apiPrefixes).flatMap((prefix) =>
  prefix
    .split('/')
    .slice(1)
    .map((_, index, parts) => `/${parts.slice(0, index + 1).join('/')}`),
);
const namesAnApiPath = (text: string): boolean =>
  prefixSegments.some(
    (segment) => text === segment || text.startsWith(`${segment}/`) || text.startsWith(`${segment}?`),
  );

const numberWords = `zero one two three four five six seven eight nine ten
  eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty`.split(/\s+/);
/** The schedule window's two ends in words, however written: `15 minutes`, `fifteen mins`, `7 days`, `a week`, `168 hours`. */
function windowWords(ms: number): RegExp[] {
  const units = [
    { ms: 60_000, words: 'min(?:ute)?s?' },
    { ms: 3_600_000, words: 'h(?:ou)?rs?' },
    { ms: 86_400_000, words: 'days?' },
    { ms: 7 * 86_400_000, words: 'weeks?' },
  ];
  return units
    .filter((unit) => ms % unit.ms === 0)
    .map((unit) => {
      const count = ms / unit.ms;
      const spelled = [String(count), numberWords[count], count === 1 ? 'an?' : undefined].filter(Boolean).join('|');
      return new RegExp(`\\b(?:${spelled})\\s+${unit.words}\\b`, 'i');
    });
}
const scheduleWindow = [...windowWords(minimumLead.ms), ...windowWords(maximumLead.ms)];
/** Lines (comments included) that put either end of the schedule window in words. */
const windowCopies = (file: string, text: string): string[] =>
  text
    .split('\n')
    .flatMap((line, index) =>
      scheduleWindow.some((words) => words.test(line)) ? [`src/${file}:${index + 1} ${line.trim()}`] : [],
    );

const files = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.(?:ts|js)$/.test(file))
  .sort();
const sources = new Map(files.map((file) => [file, readFileSync(new URL(file, src), 'utf8')]));
const apiPathFact = 'the API prefixes';
const defaultFact = 'the default environment';
const shown = (copy: FactCopy) => `src/${copy.file}:${copy.line} ${JSON.stringify(copy.members)} ${copy.fact}`.trim();

test("no list of a shared fact's values is written outside its home, in any order or as a subset", () => {
  const copies = [...sources].flatMap(([file, text]) => factCopies(file, text, facts));
  expect(copies.map(shown)).toEqual([]);
});

/** `["a","b"] src/x.ts:1, src/y.ts:4`: one fact written in several files, as the failure names it. */
const shownRepeat = (places: LiteralList[]) =>
  `${JSON.stringify(places[0]?.values)} ${places.map(({ file, line }) => `src/${file}:${line}`).join(', ')}`;

test('no set of literal values is listed in two files of src/, registered as a fact or not', () => {
  // The finder reads real lists (the statuses' home has several): the same file twice repeats them all.
  const twice = new Map([
    ['a.ts', sources.get('domain/message.ts') ?? ''],
    ['b.ts', sources.get('domain/message.ts') ?? ''],
  ]);
  expect(repeatedLists(twice).length).toBeGreaterThan(3);
  expect(repeatedLists(sources).map(shownRepeat)).toEqual([]);
});

test("the API prefixes and the environments' base paths are written only in src/domain/environment.ts", () => {
  const copies = [...sources]
    .filter(([file]) => file !== 'domain/environment.ts')
    .flatMap(([file, text]) => literalCopies(file, text, namesAnApiPath, apiPathFact));
  expect(copies.map(shown)).toEqual([]);
});

test('the default environment is stated once, in src/domain/environment.ts', () => {
  const copies = [...sources]
    .filter(([file]) => file !== 'domain/environment.ts')
    .flatMap(([file, text]) => defaultCopies(file, text, defaultEnvironment, defaultFact));
  expect(copies.map(shown)).toEqual([]);
});

test('the schedule window is put in words once, in src/domain/scheduleWindow.ts', () => {
  const copies = [...sources].flatMap(([file, text]) =>
    file === 'domain/scheduleWindow.ts' ? [] : windowCopies(file, text),
  );
  expect(copies).toEqual([]);
});

test('CONTRIBUTING.md says where each shared fact lives', () => {
  const text = readFileSync(new URL('CONTRIBUTING.md', root), 'utf8');
  const start = text.indexOf('## Where each shared fact lives');
  expect(start).toBeGreaterThan(0);
  const end = text.indexOf('\n## ', start);
  const section = text.slice(start, end < 0 ? undefined : end);
  for (const { home } of facts) expect(section).toContain(`src/${home}`);
  expect(section).toContain('src/domain/scheduleWindow.ts');
});

// The guards above, shown failing on throwaway violations: each source below is checked as if it sat in src/.

test('an environment list in another order is a copy', () => {
  const copies = factCopies('http/x.ts', "const names = ['sandbox', 'live'];", facts);
  expect(copies.map(shown)).toEqual(['src/http/x.ts:1 ["sandbox","live"] the environments']);
});

test('two statuses out of the machine are a copy, as an array or a chain of comparisons', () => {
  const source = [
    "const stuck = new Set(['expired', 'pending']);",
    "const done = (status: string) => status === 'delivered' || status === 'cancelled';",
  ].join('\n');
  expect(factCopies('ui/x.ts', source, facts).map(shown)).toEqual([
    'src/ui/x.ts:1 ["expired","pending"] the leg and message statuses',
    'src/ui/x.ts:2 ["delivered","cancelled"] the leg and message statuses',
  ]);
});

test('a status union in another order is a copy, and a delivery outcome list names both facts it fits', () => {
  const source =
    "type Early = 'submitted' | 'staged' | 'pending' | null;\nconst outcomes = ['noroute', 'blist'] as const;";
  expect(factCopies('engine/x.ts', source, facts).map(shown)).toEqual([
    'src/engine/x.ts:1 ["submitted","staged","pending"] the leg and message statuses',
    'src/engine/x.ts:2 ["noroute","blist"] the leg and message statuses / the delivery outcomes',
  ]);
});

test("a list is its own fact's in that fact's home, and no fact's when one member is foreign", () => {
  expect(factCopies('domain/environment.ts', "const e = ['sandbox', 'live'];", facts)).toEqual([]);
  expect(factCopies('ui/x.ts', "const mixed = ['delivered', 'opened'];", facts)).toEqual([]);
  expect(factCopies('ui/x.ts', "const one = ['delivered'];", facts)).toEqual([]);
});

test('a path under an API prefix and the default environment written as a default are copies', () => {
  const paths = literalCopies(
    'cli/x.ts',
    "const a = '/sandbox/v1/messages';\nconst b = `${origin}/v1`;",
    namesAnApiPath,
    apiPathFact,
  );
  expect(paths.map(shown)).toEqual([
    'src/cli/x.ts:1 ["/sandbox/v1/messages"] the API prefixes',
    'src/cli/x.ts:2 ["/v1"] the API prefixes',
  ]);
  const source =
    "const e = given ?? 'live';\nfunction f(environment = 'live') {}\nconst s = z.enum(names).default('live');";
  expect(defaultCopies('http/x.ts', source, defaultEnvironment, defaultFact).map(shown)).toEqual([
    'src/http/x.ts:1 ["live"] the default environment',
    'src/http/x.ts:2 ["live"] the default environment',
    'src/http/x.ts:3 ["live"] the default environment',
  ]);
});

test('the schedule window reworded is a copy', () => {
  const text = '// at least fifteen minutes ahead\nconst hint = `no later than a week from now`;\n// a 7-day jump';
  expect(windowCopies('domain/x.ts', text)).toEqual([
    'src/domain/x.ts:1 // at least fifteen minutes ahead',
    'src/domain/x.ts:2 const hint = `no later than a week from now`;',
  ]);
});

test('a fact nobody registered is found in every form it is written in two files, and a derived list passes', () => {
  const tree = new Map([
    ['webhooks/marks.ts', "export type Mark = 'late' | 'orphan';"],
    ['control/answer.ts', "const mark = z.enum(['orphan', 'late']);"],
    ['engine/stop.ts', "switch (reason) {\n  case 'limit':\n  case 'restart':\n    break;\n}"],
    ['state/clock.ts', 'export const stops = { limit: 1, restart: 2 } as const;'],
    ['cli/kinds.ts', "const isKind = (k: string) => k === 'words' || k === 'sentence';"],
    ['ui/kinds.ts', "type Kind = 'sentence' | 'words';"],
    [
      'http/derived.ts',
      "import { stops } from '../state/clock.js';\nconst names = Object.keys(stops);\ntype P = Pick<T, 'late' | 'orphan'>;",
    ],
    ['domain/typed.ts', 'export const byOutcome: Record<Outcome, number> = { limit: 1, restart: 2 };'],
    ['control/rows.ts', "export const row = { limit: 1, restart: 2 } satisfies OperationTable['reset'];"],
    ['engine/loose.ts', 'export const byName: Record<string, number> = { limit: 1, restart: 2 };'],
  ]);
  expect(repeatedLists(tree).map(shownRepeat)).toEqual([
    '["late","orphan"] src/webhooks/marks.ts:1, src/control/answer.ts:1',
    '["limit","restart"] src/engine/stop.ts:1, src/state/clock.ts:1, src/engine/loose.ts:1',
    '["sentence","words"] src/cli/kinds.ts:1, src/ui/kinds.ts:1',
  ]);
});
