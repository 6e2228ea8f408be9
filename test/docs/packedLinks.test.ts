/** The package stands alone: every relative link in the Markdown it ships leads to a file it ships too. */

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('every relative link in the shipped README, CHANGELOG and docs leads to a file in the packed package', () => {
  const listing = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const packed = (JSON.parse(listing) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path);
  const pages = packed.filter((path) => path.endsWith('.md'));
  expect(pages).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/index.md']));
  const missing: string[] = [];
  for (const page of pages) {
    const text = readFileSync(join(root, page), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^()\s]+)\)/g)) {
      if (/^(?:[a-z]+:|#)/.test(target!)) continue;
      const path = normalize(join(dirname(page), target!.split('#')[0]!)).replace(/\/$/, '');
      if (!packed.some((file) => file === path || file.startsWith(`${path}/`))) missing.push(`${page} → ${target}`);
    }
  }
  expect(missing, 'links to files the package does not ship').toEqual([]);
});
