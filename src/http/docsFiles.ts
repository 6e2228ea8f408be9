/** The reference pages of docs/ (shipped in the package beside dist/), read on first use and served under /_emulator/docs. */

import { readdirSync, readFileSync } from 'node:fs';

// The same relative path works from src/http (tests) and dist/http (the package): both sit two levels below the root.
const folder = new URL('../../docs/', import.meta.url);
// Only plain page names: the name a request gives is looked up among these, never joined to a path.
const pageName = /^[a-z0-9][a-z0-9-]*\.md$/;

export interface DocsFile {
  /** `options.md` */
  name: string;
  /** The page's first heading. */
  title: string;
  text: string;
}

let files: Map<string, DocsFile> | undefined;

/** Every docs/ page, by file name; none when the folder is missing (a copy of dist/ without it). */
export function docsFiles(): Map<string, DocsFile> {
  if (files) return files;
  files = new Map();
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => pageName.test(name));
  } catch {
    // No docs/ folder beside dist/: the emulator's own pages are still served.
  }
  for (const name of names.sort()) {
    const text = readFileSync(new URL(name, folder), 'utf8');
    files.set(name, { name, title: /^# (.+)$/m.exec(text)?.[1] ?? name, text });
  }
  return files;
}
