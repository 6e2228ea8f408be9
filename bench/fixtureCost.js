// The vitest fixture's per-test cost: runs bench/fixture (a vitest project) in a vitest of its own, one file at a time, and
// answers the median duration of each kind of test (vitest's own figure: fixture set-up and clean-up included).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('./fixture/', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const reporter = fileURLToPath(new URL('./fixture/durations.ts', import.meta.url));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs `tests` tests of each kind and resolves with the medians (ms) per project and kind. */
export async function fixtureCost(tests) {
  const directory = mkdtempSync(join(tmpdir(), 'sms-bench-fixture-'));
  const out = join(directory, 'durations.json');
  try {
    const child = spawn(
      process.execPath,
      [vitest, 'run', '--root', root, `--reporter=${reporter}`, '--maxWorkers=1', '--no-file-parallelism'],
      {
        cwd: root,
        env: { ...process.env, BENCH_FIXTURE_TESTS: String(tests), BENCH_FIXTURE_OUT: out },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`bench: the fixture project's vitest run failed (exit ${code}):\n${output}`);
    const figures = {};
    const first = {};
    for (const { project, file, tests: runs } of JSON.parse(readFileSync(out, 'utf8'))) {
      // The first test of a file also starts what the file and the worker share (the emulator, the catcher server,
      // the first request's and first webhook's code): reported apart, the median is of the others.
      const kind = file.replace('.cost.ts', '');
      (figures[project] ??= {})[kind] = median(runs.slice(1).map((run) => run.ms));
      (first[project] ??= {})[kind] = runs[0].ms;
    }
    return { tests, ...figures, first };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
