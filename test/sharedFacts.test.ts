/** One home per shared fact: each list (environments, prefixes, statuses, webhook states, the schedule window) is written once in src/, where CONTRIBUTING.md says it lives. */

import { readFileSync, readdirSync } from 'node:fs';
import { expect, test } from 'vitest';

const root = new URL('../', import.meta.url);
const src = new URL('src/', root);

/** Each fact, the module that defines it, and a pattern only a copy of it would match. */
const facts = [
  {
    fact: 'the environments',
    home: 'domain/environment.ts',
    copy: /['"]live['"],\s*['"]sandbox['"]|['"]live['"] \| ['"]sandbox['"]/,
  },
  { fact: 'the API prefixes', home: 'domain/environment.ts', copy: /['"`]\/(?:sandbox\/)?v1['"`]/ },
  {
    fact: 'the leg and message statuses',
    home: 'domain/message.ts',
    copy: /['"]staged['"],\s*['"]submitted['"]|['"]failed['"],\s*['"]cancelled['"]/,
  },
  {
    fact: 'the webhook states',
    home: 'webhooks/log.ts',
    copy: /['"]delayed['"],\s*['"]delivered['"]|['"]pending['"] \| ['"]delayed['"]/,
  },
  {
    fact: 'the public API operations',
    home: 'domain/apiOperations.ts',
    copy: /['"](?:\/v1)?\/messages\/balance['"]|operationId: ['"]sendMessage['"]|['"]balance['"],\s*['"]send['"],\s*['"]list['"]|['"]balance['"] \| ['"]send['"] \| ['"]list['"]/,
  },
  { fact: 'the schedule window', home: 'domain/scheduleWindow.ts', copy: /\b(?:15 minutes|7 days)\b/ },
] as const;

const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(?:ts|js)$/.test(file));
const sources = new Map(files.map((file) => [file, readFileSync(new URL(file, src), 'utf8')]));

test.each(facts.map((entry) => [entry.fact, entry.home, entry.copy] as const))(
  '%s are written once, in src/%s',
  (_fact, home, copy) => {
    const where = [...sources].filter(([, text]) => copy.test(text)).map(([file]) => file);
    expect(where).toEqual([home]);
  },
);

test('CONTRIBUTING.md says where each shared fact lives', () => {
  const text = readFileSync(new URL('CONTRIBUTING.md', root), 'utf8');
  const start = text.indexOf('## Where each shared fact lives');
  expect(start).toBeGreaterThan(0);
  const end = text.indexOf('\n## ', start);
  const section = text.slice(start, end < 0 ? undefined : end);
  for (const { home } of facts) expect(section).toContain(`src/${home}`);
});
