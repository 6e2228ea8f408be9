// Rewrites the README's control API table from the operations table (run after `npm run build`; test/readme.test.ts checks it).
import { readFileSync, writeFileSync } from 'node:fs';
import { controlTable } from '../dist/control/controlTable.js';

const target = new URL('../README.md', import.meta.url);
const readme = readFileSync(target, 'utf8');
const start = readme.indexOf('| endpoint | library handle | what it does |');
const end = readme.indexOf('\n\n', start);
if (start < 0 || end < 0) throw new Error('README.md has no control API table to replace');
writeFileSync(target, readme.slice(0, start) + controlTable() + readme.slice(end));
console.log(`wrote the control table in ${target.pathname}`);
