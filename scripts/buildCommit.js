// One commit of this repository built from git into a temporary folder (its own dist/ and bin/), for a script to run beside this checkout.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed: ${(result.stderr || result.stdout || '').trim()}`);
  return result.stdout;
}

/**
 * Builds `ref` (a commit, tag or branch) once under the OS's temp folder and reuses the folder afterwards; answers
 * `{ commit, short, dir }`, or `{ skipped }` saying why there is none: not a git checkout, the commit is not in its
 * history (a shallow clone), or the build failed. Its dependencies are this checkout's node_modules when the lock files
 * agree (a link, nothing installed), else `npm ci` in the folder. bench/release.js and scripts/differential.js use it.
 */
export function buildCommit(ref) {
  let commit;
  try {
    commit = run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], root).trim();
  } catch {
    return { skipped: `${ref} is not in this checkout's git history` };
  }
  const short = commit.slice(0, 7);
  // The folder's name predates the differential run (bench/release.js built the last release there first); kept, so a
  // build already made is reused.
  const dir = join(tmpdir(), `sms-emulator-release-${commit}`);
  const built = join(dir, '.bench-built');
  try {
    // A folder whose node_modules link points at a checkout since removed is built again.
    if (!existsSync(built) || !existsSync(join(dir, 'node_modules'))) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const archive = join(dir, '..', `sms-emulator-release-${commit}.tar`);
      run('git', ['archive', '--format=tar', '-o', archive, commit], root);
      run('tar', ['-xf', archive, '-C', dir], root);
      rmSync(archive, { force: true });
      const sameLock =
        existsSync(join(dir, 'package-lock.json')) &&
        readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(root, 'package-lock.json'), 'utf8');
      if (sameLock) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
      else run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
      run('npm', ['run', 'build', '--silent'], dir);
      writeFileSync(built, `${commit}\n`);
    }
  } catch (error) {
    return { skipped: `building ${short} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { commit, short, dir };
}
