// Bundles the command's start path into dist/cli-bundle/: dist/cli/main.js and every module it imports statically, zod and
// hono included, become one file, so `sms-emulator` resolves, reads and compiles one module at start instead of ~210 (that
// module loading was over half of its cold start). The library entry points stay the unbundled dist/ that tsc writes.
// Runs after tsc (npm run build). Rollup's WebAssembly build: no native binary, nothing downloaded at install.
import { rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup } from '@rollup/wasm-node';

const root = fileURLToPath(new URL('../', import.meta.url));
const outDir = `${root}dist/cli-bundle`;
const builtins = new Set(builtinModules);

/**
 * Keeps every module's `import.meta.url` pointing at its own file in dist/ (or node_modules/), so the paths it builds from it
 * (package.json, scenarios/, the web inbox's files, createRequire of the lazily loaded packages) stay right inside the bundle.
 */
const ownLocation = {
  name: 'own-import-meta-url',
  resolveImportMeta(property, { moduleId, chunkId }) {
    if (property !== 'url') return null;
    const path = relative(dirname(`${outDir}/${chunkId}`), moduleId)
      .split(sep)
      .join('/');
    return `new URL(${JSON.stringify(path)}, import.meta.url).href`;
  },
  /** A package imported with `import()` is loaded on demand (selfsigned, only with TLS), so it stays out of the bundle. */
  resolveDynamicImport(specifier) {
    return typeof specifier === 'string' && !specifier.startsWith('.') ? false : null;
  },
};

const bundle = await rollup({
  input: { main: `${root}dist/cli/main.js` },
  // The MCP SDK (with its CommonJS dependencies) loads only for `sms-emulator mcp`, from node_modules as a package.
  external: (id) => id.startsWith('node:') || builtins.has(id) || id.startsWith('@modelcontextprotocol/'),
  plugins: [ownLocation, nodeResolve({ rootDir: root, exportConditions: ['node', 'import'] })],
  onLog(level, log, handler) {
    // zod's sources carry esbuild-style annotations Rollup cannot place, and one import cycle; neither changes the output.
    if (log.code === 'INVALID_ANNOTATION' || log.code === 'CIRCULAR_DEPENDENCY') return;
    handler(level, log);
  },
});
// Chunk names carry a hash: clear the folder so no stale chunk from an earlier build is packed.
rmSync(outDir, { recursive: true, force: true });
await bundle.write({
  dir: outDir,
  format: 'es',
  entryFileNames: '[name].js',
  chunkFileNames: '[name]-[hash].js',
  banner:
    '// Built by scripts/bundle-cli.js from dist/ and its dependencies zod, hono and @hono/node-server (MIT licensed).',
});
await bundle.close();
