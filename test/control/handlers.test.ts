/**
 * The control seam by resource: each file of src/control/handlers/ holds its rows beside the handlers they run, the
 * table only composes them, and every file stays small.
 */

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

/** Rows and handlers of one resource together: the largest (clocks, with its shortcuts) is about 150 lines. */
const maxLines = 200;
const longFiles = (root: URL): string[] =>
  handlerFiles(root).filter((file) => readFileSync(new URL(file, root), 'utf8').split('\n').length > maxLines);

test(`no handler file is over ${maxLines} lines, rows included`, () => {
  expect(files.length).toBeGreaterThanOrEqual(9);
  expect(longFiles(folder)).toEqual([]);
});

test('the size rule reaches a handler in a subfolder of handlers/', () => {
  const fixture = new URL('../fixtures/handlers/', import.meta.url);
  expect(longFiles(fixture)).toEqual(['nested/long.ts']);
});

test('each handler file exports the rows of its own handlers, and the table composes them without rows of its own', () => {
  const table = readFileSync(new URL('../../src/control/operationTable.ts', import.meta.url), 'utf8');
  expect(table).not.toMatch(/\bmethod:|\bpath:|\bsummary:/);
  const rowFiles = files.filter((file) =>
    /export const \w+Rows? = \{/.test(readFileSync(new URL(file, folder), 'utf8')),
  );
  expect(rowFiles).toEqual(files);
});
