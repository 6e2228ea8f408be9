/** Where the browser tests find Chromium: CHROMIUM_PATH, else Debian's /usr/bin/chromium (.ci/run installs it). */

import { existsSync } from 'node:fs';

export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path))
    throw new Error(
      `Chromium is not at ${path}; install the Debian package chromium (.ci/run does) or set CHROMIUM_PATH.`,
    );
  return path;
}
