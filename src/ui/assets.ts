/** The inbox page's files (HTML, its ES modules, styles), shipped in the package and read once, on first use. */

import { readFileSync, readdirSync } from 'node:fs';

// The same relative path works from src/ui (tests) and dist/ui (the package): both sit two levels below the root.
const folder = new URL('../../src/ui/public/', import.meta.url);

export interface UiAsset {
  body: string;
  contentType: string;
}

/** What the browser loads, by extension (type declarations beside the modules are for the type check only). */
const contentTypes: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

const typeOf = (name: string): string | undefined => {
  const extension = name.slice(name.lastIndexOf('.') + 1);
  return name.endsWith('.d.ts') || !Object.hasOwn(contentTypes, extension) ? undefined : contentTypes[extension];
};

let names: Set<string> | undefined;

/** Every file the page may load, relative to the folder (`app.js`, `views/inbox.js`, …): the folder itself is the list. */
export function uiAssetNames(): ReadonlySet<string> {
  names ??= new Set(
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .map((name) => name.split('\\').join('/'))
      .filter((name) => typeOf(name) !== undefined),
  );
  return names;
}

const cache = new Map<string, UiAsset>();

/** One of the page's files by name; undefined for any other name. */
export function uiAsset(name: string): UiAsset | undefined {
  const contentType = uiAssetNames().has(name) ? typeOf(name) : undefined;
  if (contentType === undefined) return undefined;
  let asset = cache.get(name);
  if (!asset) {
    asset = { body: readFileSync(new URL(name, folder), 'utf8'), contentType };
    cache.set(name, asset);
  }
  return asset;
}
