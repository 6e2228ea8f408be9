/** One `npm run kits` at a time on a machine (see buildLock.js). */
export function acquireBuildLock(
  path: string,
  options: { owner: string; onWait?: (holder: string) => void; python?: string },
): Promise<() => Promise<void>>;
