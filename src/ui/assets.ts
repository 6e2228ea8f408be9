/** The inbox page's files (HTML, script, styles), shipped in the package and read once, on first use. */

import { readFileSync } from 'node:fs';

// The same relative path works from src/ui (tests) and dist/ui (the package): both sit two levels below the root.
const folder = new URL('../../src/ui/public/', import.meta.url);

export interface UiAsset {
  body: string;
  contentType: string;
}

const files: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

const cache = new Map<string, UiAsset>();

/** One of the page's files by name; undefined for any other name. */
export function uiAsset(name: string): UiAsset | undefined {
  const contentType = Object.hasOwn(files, name) ? files[name] : undefined;
  if (contentType === undefined) return undefined;
  let asset = cache.get(name);
  if (!asset) {
    asset = { body: readFileSync(new URL(name, folder), 'utf8'), contentType };
    cache.set(name, asset);
  }
  return asset;
}
