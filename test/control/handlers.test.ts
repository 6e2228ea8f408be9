/** The control seam by resource: every route row of the table runs one handler of src/control/handlers/, each file small. */

import { readFileSync, readdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import { isRoute, operationList } from '../../src/control/operationList.js';

const folder = new URL('../../src/control/handlers/', import.meta.url);
/** Every module under a folder, subfolders included, so a handler moved into one still meets the rules below. */
const handlerFiles = (root: URL): string[] =>
  readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .sort();
const files = handlerFiles(folder);

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

const longFiles = (root: URL): string[] =>
  handlerFiles(root).filter((file) => readFileSync(new URL(file, root), 'utf8').split('\n').length > 120);

test('no handler file is over 120 lines', () => {
  expect(files.length).toBeGreaterThanOrEqual(9);
  expect(longFiles(folder)).toEqual([]);
});

test('the size rule reaches a handler in a subfolder of handlers/', () => {
  const fixture = new URL('../fixtures/handlers/', import.meta.url);
  expect(longFiles(fixture)).toEqual(['nested/long.ts']);
});
