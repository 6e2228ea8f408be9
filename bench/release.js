// The last release, built from git into a temporary folder, so the load rounds can measure it beside this checkout.
import { join } from 'node:path';
import { buildCommit } from '../scripts/buildCommit.js';

/**
 * The release the request path is held to (issue 31 measured it losing speed since this one). BENCH_RELEASE names
 * another commit or tag; BENCH_RELEASE=none leaves the release out.
 */
export const lastRelease = '3245eb7';

/**
 * The release's CLI arguments and its own bench/scale.js (built once per commit by scripts/buildCommit.js, which says
 * where and how), or why there is none.
 */
export function prepareRelease(ref = process.env.BENCH_RELEASE ?? lastRelease) {
  if (ref === 'none') return { skipped: 'BENCH_RELEASE=none' };
  const built = buildCommit(ref);
  if ('skipped' in built) return built;
  return {
    commit: built.short,
    args: [join(built.dir, 'bin', 'sms-emulator.js')],
    scale: join(built.dir, 'bench', 'scale.js'),
  };
}
