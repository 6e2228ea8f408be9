// What a test's world costs each language kit with the runtime and emulator it carries: runs every
// kits/<language>/bench-world.sh <kits/dist> <worlds> (each kit's own benchmark, after `npm run kits`) and reads the
// JSON line it prints last: {"kit", "worlds", "emulator", "worldMs", "worldWithSendMs"}, medians in milliseconds of a
// world's set-up and clean-up alone, and of a world that sends one message, waits for `delivered` and asserts its
// webhook. The Node fixture's figures for the same work are the fixture part's process-mode rows. The second argument
// is a number of worlds (a Go kit turns it into -benchtime <worlds>x).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const kitsDir = fileURLToPath(new URL('../kits/', import.meta.url));
const dist = join(kitsDir, 'dist');

/** The last line of `output` read as a kit's JSON figures, or undefined when it is not one. */
function figures(output) {
  const last = output.trim().split('\n').at(-1) ?? '';
  try {
    const parsed = JSON.parse(last);
    return typeof parsed.worldMs === 'number' && typeof parsed.worldWithSendMs === 'number' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Runs each kit's benchmark over `worlds` worlds; a kit without the script, or before `npm run kits`, is listed as skipped. */
export function kitCost(worlds) {
  const kits = readdirSync(kitsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'dist')
    .map((entry) => entry.name)
    .sort();
  const rows = [];
  for (const kit of kits) {
    const script = join(kitsDir, kit, 'bench-world.sh');
    if (!existsSync(script)) {
      rows.push({ kit, skipped: `kits/${kit}/bench-world.sh does not exist yet` });
      continue;
    }
    if (!existsSync(join(dist, 'bundle'))) {
      rows.push({ kit, skipped: 'kits/dist/ is missing: run npm run kits first' });
      continue;
    }
    const run = spawnSync('bash', [script, dist, String(worlds)], {
      cwd: join(kitsDir, kit),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    // A kit whose benchmark fails gets a row saying so (and its output in the log): the other kits' figures still count.
    if (run.status !== 0) {
      console.error(
        `bench: kits/${kit}/bench-world.sh failed (${run.status ?? run.signal}):\n${run.stdout}${run.stderr}`,
      );
      rows.push({ kit, skipped: `its benchmark failed (exit ${run.status ?? run.signal}; the output is in the log)` });
      continue;
    }
    const found = figures(run.stdout);
    rows.push(
      found === undefined
        ? { kit, skipped: 'its last line of output was not the JSON figures (see bench/kitCost.js)' }
        : {
            kit,
            worlds: found.worlds ?? worlds,
            emulator: found.emulator ?? '',
            worldMs: found.worldMs,
            worldWithSendMs: found.worldWithSendMs,
          },
    );
  }
  return { worlds, kits: rows };
}
