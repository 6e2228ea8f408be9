// The order of `npm run kits` with its steps injected (scripts/kits/build.js passes the real ones, the tests fakes):
// which kits a run builds, that one kit's failure stops no other, and that runs take the build lock one at a time.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The kits that have a build step (kits/<name>/build-artefacts.sh), in name order. */
export function kitsWithBuildStep(root) {
  return readdirSync(join(root, 'kits'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, 'kits', entry.name, 'build-artefacts.sh')))
    .map((entry) => entry.name)
    .sort();
}

/**
 * The kits a run builds: the names on its command line (`npm run kits -- python go`), else `KITS=python,go`, else
 * every kit; a name that is no kit is an error naming the kits there are.
 */
export function requestedKits(available, args, env) {
  const named = [...args, ...(args.length === 0 ? (env.KITS ?? '').split(',') : [])]
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = named.filter((name) => !available.includes(name));
  if (unknown.length > 0)
    throw new Error(`kits: no kit named ${unknown.join(', ')}; the kits are ${available.join(', ')}`);
  return named.length === 0 ? available : available.filter((name) => named.includes(name));
}

/**
 * Runs `steps.prepare()` (the build, the carried emulator and runtimes every kit needs: a failure there stops the run)
 * and then `steps.kit(name)` for each kit, going on past a kit that fails; all under the lock `lock()` answers the
 * release of. Answers { built, failed: [{ kit, error }] }.
 */
export async function buildKits({ kits, steps, lock, log }) {
  const release = await lock();
  try {
    await steps.prepare();
    const built = [];
    const failed = [];
    for (const kit of kits) {
      log(`== kits: ${kit}`);
      try {
        await steps.kit(kit);
        built.push(kit);
      } catch (error) {
        failed.push({ kit, error: error instanceof Error ? error.message : String(error) });
        log(`kits: ${kit} failed: ${failed.at(-1).error}`);
      }
    }
    return { built, failed };
  } finally {
    await release();
  }
}
