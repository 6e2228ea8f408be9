/** Reads the README and the docs/ pages for the tests that check them. */

import { readdirSync, readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);

/** A file of the repository by its path from the root. */
export function readRepoFile(path: string): string {
  return readFileSync(new URL(path, root), 'utf8');
}

/** The file names of the docs/ pages (`options.md`, …), sorted. */
export function docsPages(): string[] {
  return readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .sort();
}

/** One docs/ page's text. */
export function docsPage(name: string): string {
  return readRepoFile(`docs/${name}`);
}
