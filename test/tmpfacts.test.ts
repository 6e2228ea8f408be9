import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'vitest';
import { factCopies } from './support/sharedFactCopies.js';
import { environments } from '../src/domain/environment.js';
import { shownStatuses, } from '../src/domain/message.js';
import { webhookStates } from '../src/domain/webhookEvent.js';
import { apiOperations } from '../src/domain/apiOperations.js';
const facts = [
  { name: 'the environments', home: 'domain/environment.ts', values: environments },
  { name: 'the statuses', home: 'domain/message.ts', values: shownStatuses },
  { name: 'the webhook states', home: 'domain/webhookEvent.ts', values: webhookStates },
  { name: 'the api operations', home: 'domain/apiOperations.ts', values: Object.keys(apiOperations) },
];
test('x', () => {
  const out: string[] = [];
  const src = new URL('../src/', import.meta.url);
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|js)$/.test(f)))
    for (const c of factCopies(file, readFileSync(new URL(file, src), "utf8"), facts)) out.push(JSON.stringify(c));
  console.log("\n" + out.join("\n"));
});
