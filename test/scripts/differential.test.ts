/** The differential run (npm run differential): its session is deterministic on one build, and its diff finds a changed answer. */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
// The session runs on the build, as npm run differential does (npm test builds first); no commit is built here.
import { recordSession } from '../../scripts/differential/session.js';
import {
  type Difference,
  checkExpectations,
  diffRecordings,
  formatDiff,
  readExpectations,
} from '../../scripts/differential/diff.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

test('the session recorded twice on one build shows no difference, and a changed answer is found at its path', async () => {
  const first = await recordSession(dist);
  const second = await recordSession(dist);
  expect(first.calls.length).toBeGreaterThan(100);
  expect(diffRecordings(first, second)).toEqual([]);

  // A build whose balance answer differs: the diff names that call and that path, and nothing else.
  const changed = await recordSession(dist, {
    change: (call, answer) =>
      call === 'GET /v1/messages/balance'
        ? { ...(answer as object), body: { ...(answer as { body: object }).body, balance: 999 } }
        : answer,
  });
  const differences = diffRecordings(first, changed);
  expect(differences).toEqual([
    { call: 'GET /v1/messages/balance', path: 'answer.body.balance', before: 1000, after: 999 },
  ]);
  expect(formatDiff(differences)).toBe('GET /v1/messages/balance\n  answer.body.balance: 1000 → 999\n');
});

test('the session covers the API, both handles, the control routes and delivered webhooks', async () => {
  const { calls } = await recordSession(dist);
  const names = calls.map((call) => call.call);
  for (const name of [
    'POST /v1/messages (send, every field)',
    'POST /v1/messages (insufficient credit)',
    'GET /_emulator/openapi.json',
    'snapshot import (remote)',
    'worlds.create (in process)',
    'webhooks.setChaos (in process)',
  ])
    expect(names).toContain(name);
  const posted = calls.flatMap((call) => call.webhooks ?? []);
  expect(posted.length).toBeGreaterThan(20);
  // Nothing legitimately random is left: no port a server was given (ephemeral ports have five digits; the OpenAPI
  // document's examples name port 4000), no wall-clock reading.
  const text = JSON.stringify(calls);
  expect(text).not.toMatch(/127\.0\.0\.1:\d{5}/);
  expect(text).toContain('http://<emulator>/');
  expect(text).toContain('http://<receiver>/');
  expect(text).toContain('"<wallTime>"');
});

test('a difference the expectations do not list is unexpected, and an entry nothing matches is unseen', () => {
  const found: Difference[] = [
    { call: 'GET /a', path: 'answer.body.list[0].mode', before: 'x', after: 'y' },
    { call: 'GET /a', path: 'answer.body.list[1].mode', before: 'x', after: 'y' },
    { call: 'GET /b', path: 'answer.status', before: 200, after: 201 },
  ];
  const listed = [{ call: 'GET /a', path: 'answer.body.list[*].mode', before: 'x', after: 'y', changelog: 'mode' }];
  expect(checkExpectations(found, listed)).toEqual({ unexpected: [found[2]], unseen: [] });
  const stale = { path: 'answer.gone', changelog: 'gone' };
  expect(checkExpectations(found.slice(0, 2), [...listed, stale])).toEqual({ unexpected: [], unseen: [stale] });
  // Values are held too: the same path with another change is not the listed one.
  const other = { ...found[0]!, after: 'z' };
  expect(checkExpectations([other], listed).unexpected).toEqual([other]);
});

test('each difference docs/differential.md expects names an entry of CHANGELOG.md', () => {
  // Quotes may run over the CHANGELOG's line breaks: spaces are compared as one.
  const words = (text: string) => text.replace(/\s+/g, ' ');
  const changelog = words(readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8'));
  const expected = readExpectations(readFileSync(new URL('../../docs/differential.md', import.meta.url), 'utf8'));
  expect(expected.length).toBeGreaterThan(0);
  for (const entry of expected) expect(changelog).toContain(words(entry.changelog));
});
