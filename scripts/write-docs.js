// `npm run docs`: rewrites the generated parts of docs/ and the README, the control API table in docs/control-api.md
// (from the operations table; run after `npm run build`), the delivery behaviours' table in docs/webhooks.md (from theirs) and the figures in docs/performance.md, docs/vitest-and-client.md
// and README.md (copied from bench/RESULTS.md, which `npm run bench` writes). test/docs/tables.test.ts fails when either drifts.
import { readFileSync, writeFileSync } from 'node:fs';
import { controlTable } from '../dist/control/controlTable.js';
import { behaviourTable } from '../dist/domain/deliveryBehaviour.js';
import { benchSummary } from './benchSummary.js';

/** Replaces, in one page (a path from the repo's root), each block that starts with a given line and ends before the next blank line (or the page's end). */
function rewrite(page, blocks) {
  const target = new URL(`../${page}`, import.meta.url);
  let text = readFileSync(target, 'utf8');
  for (const [first, block] of blocks) {
    const start = text.indexOf(first);
    if (start < 0) throw new Error(`${page} has no block starting with ${first}`);
    const blank = text.indexOf('\n\n', start);
    const end = blank < 0 ? text.trimEnd().length : blank;
    text = text.slice(0, start) + block + text.slice(end);
  }
  writeFileSync(target, text);
  console.log(`wrote the generated blocks of ${page}`);
}

rewrite('docs/control-api.md', [['| endpoint | library handle | what it does |', controlTable()]]);
rewrite('docs/webhooks.md', [['| behaviour | what it does |', behaviourTable()]]);
const { written, machine, targets, fixture } = benchSummary(
  readFileSync(new URL('../bench/RESULTS.md', import.meta.url), 'utf8'),
);
const fixtureBlocks = [
  ['Written by `npm run bench` (fixture part', fixture.written],
  ['| per test | measured | baseline (same run) |', fixture.table],
];
rewrite('docs/performance.md', [
  ['Written by `npm run bench` (size', written],
  ['Machine: ', machine],
  ['| figure | measured | baseline (same run) |', targets],
  ...fixtureBlocks,
]);
rewrite('docs/vitest-and-client.md', fixtureBlocks);
rewrite('README.md', fixtureBlocks);
