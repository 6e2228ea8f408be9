/** The package's version, read once from its package.json (the same relative path from src/ and dist/). */

import { readFileSync } from 'node:fs';

let version: string | undefined;

export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
  return version;
}
