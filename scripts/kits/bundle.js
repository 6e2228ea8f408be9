// Writes the carried emulator (kits/dist/bundle/): the bundled CLI of dist/cli-bundle/ (scripts/bundle-cli.js) in the
// package's own layout, so the paths its modules build from import.meta.url (package.json, scenarios/, the inbox's
// files, docs/) land on copies inside the folder, and a node_modules/ of its own holding only the packages the CLI still
// loads at run time (the lazily loaded ones: import() of selfsigned, undici and @hono/node-server, createRequire of
// yaml, re2js and faker) with their own dependencies. The folder runs with a bare `node` and nothing beside it.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The package files a kit's emulator reads at run time, relative to the package root. */
const carriedFiles = [
  'package.json',
  'LICENSE',
  'bin/sms-emulator.js',
  'dist/cli-bundle',
  'scenarios',
  'src/ui/public',
];
/** The docs pages the emulator serves under /_emulator/docs (http/docsFiles.ts reads docs/*.md, no deeper). */
const docsPage = /^[a-z0-9][a-z0-9-]*\.md$/;
/** Files of a carried package nothing loads at run time: TypeScript sources and declarations, source maps, dot-files
 * (editor and CI settings, which Go's embed would also leave out). */
const notRun = /(\.[cm]?ts|\.map|\.tsbuildinfo)$|(^|[\\/])\.[^\\/]+$/;

const dynamicImport = /\bimport\(\s*(['"])([^'"./][^'"]*)\1\s*\)/g;
const requireCall = /\bcreateRequire\((?:new URL\([^()]*\)\.href|import\.meta\.url)\)\((['"])([^'"]+)\1\)/g;
const metaUrl = /new URL\((['"])([^'"]+)\1, import\.meta\.url\)/g;

/** `@faker-js/faker/locale/en` → `@faker-js/faker`. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/**
 * The bare specifiers the bundled chunks load at run time; fails on a createRequire it cannot read. The one
 * createRequire that takes a name from a variable, src/lazyPackage.ts's loader, loads the names it lists.
 */
function runtimeSpecifiers(chunkDir, lazyNames) {
  const found = new Set(lazyNames);
  for (const name of readdirSync(chunkDir)) {
    const code = readFileSync(join(chunkDir, name), 'utf8');
    for (const match of code.matchAll(dynamicImport)) found.add(match[2]);
    const requires = [...code.matchAll(requireCall)];
    for (const match of requires) found.add(match[2]);
    const calls = code.match(/\bcreateRequire\(/g)?.length ?? 0;
    const lazyLoader = /\blazyPackageNames\b/.test(code) ? 1 : 0;
    if (calls !== requires.length + lazyLoader)
      throw new Error(
        `kits: ${name} calls createRequire ${calls} times but only ${requires.length} with a literal package name; the kit bundle cannot tell what else to carry`,
      );
  }
  return [...found].sort();
}

/** Where Node would find `name` from `fromDir`: the nearest node_modules/<name> up the tree, within `root`. */
function locate(name, fromDir, root) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dirname(dir) === dir) return undefined;
  }
}

/** Every package folder `names` need at run time (dependencies, installed optional ones, required peers), from root. */
function packageClosure(names, root) {
  const folders = new Set();
  const visit = (name, fromDir, requiredBy) => {
    const folder = locate(name, fromDir, root);
    if (folder === undefined) throw new Error(`kits: ${name} (needed by ${requiredBy}) is not installed`);
    if (folders.has(folder)) return;
    folders.add(folder);
    const manifest = readJson(join(folder, 'package.json'));
    const optionalPeers = manifest.peerDependenciesMeta ?? {};
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, folder, name);
    for (const dep of Object.keys(manifest.peerDependencies ?? {}))
      if (!optionalPeers[dep]?.optional) visit(dep, folder, name);
    for (const dep of Object.keys(manifest.optionalDependencies ?? {}))
      if (locate(dep, folder, root) !== undefined) visit(dep, folder, name);
  };
  for (const name of names) visit(name, root, 'the bundled CLI');
  return [...folders].sort();
}

/**
 * Writes the bundle into `target` from the built package at `root` (run `npm run build` first) and answers what it
 * carries: the packages loaded at run time and every package folder copied for them.
 */
export async function writeKitBundle(root, target) {
  const manifest = readJson(join(root, 'package.json'));
  const chunkDir = join(root, 'dist/cli-bundle');
  if (!existsSync(chunkDir)) throw new Error('kits: dist/cli-bundle/ is missing; run npm run build first');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const path of carriedFiles) cpSync(join(root, path), join(target, path), { recursive: true });
  mkdirSync(join(target, 'docs'));
  for (const name of readdirSync(join(root, 'docs')).filter((page) => docsPage.test(page)))
    cpSync(join(root, 'docs', name), join(target, 'docs', name));

  // Every path a bundled module builds from import.meta.url must land inside the bundle.
  for (const name of readdirSync(chunkDir)) {
    for (const match of readFileSync(join(chunkDir, name), 'utf8').matchAll(metaUrl)) {
      const landed = resolve(target, 'dist/cli-bundle', match[2]);
      if (!landed.startsWith(`${target}${sep}`))
        throw new Error(`kits: ${name} reaches ${match[2]}, outside the bundle`);
    }
  }

  const { lazyPackageNames } = await import(pathToFileURL(join(root, 'dist/lazyPackage.js')).href);
  const specifiers = runtimeSpecifiers(chunkDir, lazyPackageNames);
  const packages = [...new Set(specifiers.map(packageName))];
  const undeclared = packages.filter((name) => !(name in (manifest.dependencies ?? {})));
  if (undeclared.length > 0)
    throw new Error(`kits: the CLI loads ${undeclared.join(', ')} at run time but package.json does not depend on it`);
  const folders = packageClosure(packages, root);
  for (const folder of folders)
    cpSync(folder, join(target, relative(root, folder)), {
      recursive: true,
      dereference: true,
      filter: (source) => !notRun.test(relative(folder, source)),
    });
  return {
    specifiers,
    packages: folders.map((folder) => relative(join(root, 'node_modules'), folder).split(sep).join('/')),
  };
}
