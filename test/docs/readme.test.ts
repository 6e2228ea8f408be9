/** The README is a landing page: the two commands first, short, and every link in it and in docs/ leads somewhere. */

import { existsSync } from 'node:fs';
import { expect, test } from 'vitest';
import { docsPage, docsPages, readRepoFile } from '../support/docs.js';

const readme = readRepoFile('README.md');

test('the README opens with the install-and-start and install-and-test commands', () => {
  const firstBlock = readme.split('```')[1] ?? '';
  expect(firstBlock).toContain('npm ci && npm start');
  expect(firstBlock).toContain('npm ci && npm test');
});

test('the README stays a landing page of at most 250 lines', () => {
  expect(readme.split('\n').length).toBeLessThanOrEqual(250);
});

test('the README links every docs page', () => {
  for (const page of docsPages()) expect(readme, `README.md does not link docs/${page}`).toContain(`(docs/${page})`);
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(text: string): Set<string> {
  const withoutCode = text.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...withoutCode.matchAll(/^#+ (.+)$/gm)].map((match) => anchor(match[1] ?? '')));
}

test('every relative link in the README and docs/ names a file that exists, and a heading of it when it has an anchor', () => {
  const files = ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', ...docsPages().map((page) => `docs/${page}`)];
  const broken: string[] = [];
  for (const file of files) {
    const text = file.startsWith('docs/') ? docsPage(file.slice(5)) : readRepoFile(file);
    const base = new URL(file, 'file:///repo/');
    for (const [, target] of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!target || /^[a-z]+:/.test(target)) continue;
      const url = new URL(target, base);
      const path = url.pathname.slice('/repo/'.length);
      const targetText =
        path === file ? text : existsSync(new URL(`../../${path}`, import.meta.url)) ? readRepoFile(path) : undefined;
      if (targetText === undefined) broken.push(`${file}: ${target} (no such file)`);
      else if (url.hash && path.endsWith('.md') && !anchorsOf(targetText).has(decodeURIComponent(url.hash.slice(1))))
        broken.push(`${file}: ${target} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
});
