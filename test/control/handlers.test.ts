/** The control seam by resource: every route row of the table runs one handler of src/control/handlers/, each file small. */

import { readFileSync, readdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import { isRoute, operationList } from '../../src/control/operationList.js';

const folder = new URL('../../src/control/handlers/', import.meta.url);
const files = readdirSync(folder).filter((file) => file.endsWith('.ts'));

test('every route operation of the table runs a function that a handler file exports', async () => {
  const handlers = new Map<unknown, string>();
  for (const file of files) {
    const module = (await import(new URL(file, folder).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) handlers.set(value, `${file}: ${name}`);
  }
  // Enough handlers to cover the resources the table has, so an empty comparison below means something.
  expect(handlers.size).toBeGreaterThan(40);
  const routes = operationList().flatMap(([id, op]) => (isRoute(op) ? [[id, op] as const] : []));
  const strays = routes.filter(([, op]) => !handlers.has(op.run)).map(([id]) => id);
  expect(strays).toEqual([]);
});

test('no handler file is over 120 lines', () => {
  const long = files
    .map((file) => [file, readFileSync(new URL(file, folder), 'utf8').split('\n').length] as const)
    .filter(([, lines]) => lines > 120);
  expect(files.length).toBeGreaterThanOrEqual(9);
  expect(long).toEqual([]);
});
