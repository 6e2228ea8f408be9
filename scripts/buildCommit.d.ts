/** One commit of this repository built from git into a temporary folder (see buildCommit.js). */
export function buildCommit(ref: string): { commit: string; short: string; dir: string } | { skipped: string };
