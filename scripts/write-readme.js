// `npm run readme`: rewrites the README's generated parts, the control API table (from the operations table; run after
// `npm run build`) and the Performance figures (copied from bench/RESULTS.md, which `npm run bench` writes). test/readme.test.ts checks both.
import { readFileSync, writeFileSync } from 'node:fs';
import { controlTable } from '../dist/control/controlTable.js';
import { benchSummary } from './benchSummary.js';

const target = new URL('../README.md', import.meta.url);
let readme = readFileSync(target, 'utf8');

/** Replaces the block that starts with `first` and ends before the next blank line. */
function replaceBlock(first, block) {
  const start = readme.indexOf(first);
  const end = readme.indexOf('\n\n', start);
  if (start < 0 || end < 0) throw new Error(`README.md has no block starting with ${first}`);
  readme = readme.slice(0, start) + block + readme.slice(end);
}

replaceBlock('| endpoint | library handle | what it does |', controlTable());
const { written, machine, targets } = benchSummary(readFileSync(new URL('../bench/RESULTS.md', import.meta.url), 'utf8'));
replaceBlock('Written by `npm run bench`', written);
replaceBlock('Machine: ', machine);
replaceBlock('| figure | measured | baseline (same run) |', targets);
writeFileSync(target, readme);
console.log(`wrote the control table and the bench figures in ${target.pathname}`);
