/**
 * The one place src/ loads a package on first use instead of at start: a start that never needs it never pays for
 * loading it, and the list below names every package loaded so (lint forbids `createRequire` anywhere else).
 */

import { createRequire } from 'node:module';

/** The packages loaded lazily, with their types. */
interface LazyPackages {
  /** Scenario texts in YAML; the built-in scenario is an object, so most starts never parse any. */
  yaml: typeof import('yaml');
  /** Scenario regexes and globs, compiled to a linear-time engine; most scenarios have none. */
  re2js: typeof import('re2js');
  /** Reply texts; only a scenario that generates replies needs it. */
  '@faker-js/faker/locale/en': typeof import('@faker-js/faker/locale/en');
}

/** Every package loaded so, by the name `lazyPackage()` takes: the kit bundle (scripts/kits/bundle.js) carries each. */
export const lazyPackageNames = [
  'yaml',
  're2js',
  '@faker-js/faker/locale/en',
] as const satisfies readonly (keyof LazyPackages)[];

const load = createRequire(import.meta.url);
const loaded = new Map<keyof LazyPackages, unknown>();

/** The package, loaded synchronously (require of an ES module) on the first call: callers run inside clock tasks. */
export function lazyPackage<Name extends (typeof lazyPackageNames)[number]>(name: Name): LazyPackages[Name] {
  // Checked at run time too: the list is what the kit bundle carries (scripts/kits/bundle.js reads it), so a name
  // outside it would work here and fail in a kit.
  if (!(lazyPackageNames as readonly string[]).includes(name))
    throw new Error(`sms-emulator: ${name} is not a lazy package`);
  let module = loaded.get(name);
  if (module === undefined) loaded.set(name, (module = load(name)));
  return module as LazyPackages[Name];
}
