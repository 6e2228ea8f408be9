/** Scenario input cannot stall or crash the emulator: patterns match in linear time, YAML is bounded. */

import { expect, test } from 'vitest';
import { compileMatch } from '../../src/engine/scenario/match.js';
import { ScenarioError, parseScenario, validateScenario } from '../../src/engine/scenario/parse.js';
import { compileGlob, compileRegex, maxPatternLength } from '../../src/engine/scenario/pattern.js';
import type { MessageRecord } from '../../src/domain/message.js';
import { call, makeEmulator } from '../support/api.js';

function subject(text: string, recipient = '27831234567') {
  return {
    message: { text, clientReference: null, apiKey: 'pk_test' } as MessageRecord,
    recipient,
    environment: 'live' as const,
  };
}

// With a backtracking engine each of these takes longer than the age of the universe; the test would time out.
test('a catastrophic regex answers at once against a 440-character text', () => {
  const matches = compileMatch(
    validateScenario({ version: 1, rules: [{ match: { text: { regex: '^(a+)+$' } }, outcome: 'failed' }] }, 's')
      .rules[0]!.match,
  );
  expect(matches(subject(`${'a'.repeat(440)}!`))).toBe(false);
  expect(matches(subject('a'.repeat(440)))).toBe(true);
});

test('a glob of 30 stars answers at once against a long recipient', () => {
  const glob = `${'*'.repeat(30)}x`;
  const matches = compileMatch({ recipient: glob });
  expect(matches(subject('x', '2'.repeat(2000)))).toBe(false);
  expect(matches(subject('x', `${'2'.repeat(2000)}x`))).toBe(true);
});

test.each([
  ['2783*99', '27831234599', true],
  ['2783*99', '27831234598', false],
  ['2783?234567', '27831234567', true],
  ['2783?234567', '278312345678', false],
  ['27.83+', '27.83+', true],
  ['27.83+', '27x833', false],
  ['*', '', true],
  ['27831234567', '27831234567', true],
])('the glob %j against %j is %s', (glob, text, expected) => {
  expect(compileGlob(glob)(text)).toBe(expected);
});

test('a regex finds its pattern anywhere in the text, like RegExp#test', () => {
  expect(compileRegex('URGENT')('this is URGENT now')).toBe(true);
  expect(compileRegex('(?i)^stop$')('Stop')).toBe(true);
  expect(compileRegex('\\?')('why?')).toBe(true);
});

test.each([
  ['rules[0].match.text.regex', { rules: [{ match: { text: { regex: '(a)\\1' } }, outcome: 'failed' }] }],
  ['rules[0].match.text.regex', { rules: [{ match: { text: { regex: 'a(?=b)' } }, outcome: 'failed' }] }],
  [
    'rules[0].match.clientReference.regex',
    { rules: [{ match: { clientReference: { regex: '(' } }, outcome: 'failed' }] },
  ],
  [
    'rules[0].match.recipient.regex',
    { rules: [{ match: { recipient: { regex: `${'('.repeat(2000)}a${')'.repeat(2000)}` } }, outcome: 'failed' }] },
  ],
  [
    'rules[0].match.recipient.glob',
    { rules: [{ match: { recipient: { glob: '*'.repeat(maxPatternLength + 1) } }, outcome: 'failed' }] },
  ],
  ['replies[0].match.recipient', { replies: [{ match: { recipient: '?'.repeat(maxPatternLength + 1) }, text: 'hi' }] }],
  ['rules[0].match.text.regex', { rules: [{ match: { text: { regex: '(a{1000}){1000}' } }, outcome: 'failed' }] }],
  [
    'rules[0].match.text.regex',
    {
      rules: [
        {
          match: { text: { regex: Array.from({ length: 90 }, (_, i) => `x${i}{1,999}`).join('|') } },
          outcome: 'failed',
        },
      ],
    },
  ],
  ['rules[0].match.text.regex', { rules: [{ match: { text: { regex: '(ab|cd|ef){300}' } }, outcome: 'failed' }] }],
])('refuses a pattern the linear engine cannot run, naming %s', (path, scenario) => {
  expect(() => validateScenario({ version: 1, ...scenario }, 'scenario')).toThrow(
    new RegExp(`scenario: ${path.replace(/[[\].]/g, '\\$&')}: not a usable`),
  );
});

test('refuses a timeline of more than 100 steps in a scenario and in X-Emulator-Outcome', async () => {
  const loop = Array.from({ length: 101 }, (_, i) => (i % 2 === 0 ? 'staged' : 'pending'));
  expect(() =>
    validateScenario(
      { version: 1, rules: [{ outcome: { timeline: loop.map((status) => ({ status, after: '1s' })) } }] },
      'scenario',
    ),
  ).toThrow(/rules\[0\]\.outcome/);
  const emulator = makeEmulator();
  const before = emulator.snapshot();
  const reply = await call(emulator, 'POST', '/v1/messages', {
    body: { recipient: ['27831234567'], message: 'x' },
    headers: { 'x-emulator-outcome': loop.map((status) => `${status}@1s`).join(',') },
  });
  expect(reply.body.message).toBe('INVALID_EMULATOR_HEADER');
  expect(reply.body.description).toContain('more than 100');
  expect(emulator.snapshot()).toEqual(before);
});

test.each([
  ['an unresolved alias', 'version: 1\ndescription: *nothing\n'],
  [
    'an alias bomb',
    `a: &a [x, x, x, x, x, x, x, x, x]\n${['b', 'c', 'd', 'e', 'f', 'g'].map((name, i) => `${name}: &${name} [${`*${'abcdef'[i]}, `.repeat(9)}]`).join('\n')}\nversion: 1\n`,
  ],
  ['100,000 nested flow sequences', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ['100,000 nested JSON objects', `{"version":1,"x":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`],
  ['100,000 nested block sequences', `${'- '.repeat(100_000)}x`],
  ['a line indented 10,000 columns', `version: 1\ndescription:\n${' '.repeat(10_000)}x\n`],
])('refuses %s as a ScenarioError', (_, text) => {
  expect(() => parseScenario(text, 'scenario')).toThrow(ScenarioError);
});

test('accepts anchors and aliases used within the limits', () => {
  const text =
    'version: 1\nrules:\n  - match: &vip { clientReference: vip }\n    outcome: blist\nreplies:\n  - match: *vip\n    text: hi\n';
  expect(parseScenario(text, 'scenario').replies[0]!.match).toEqual({ clientReference: 'vip' });
});

test.each([
  ['an unresolved alias', 'version: 1\ndescription: *nothing\n'],
  ['100,000 levels of nesting', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`],
  ['a backreference', 'version: 1\nrules:\n  - match: { text: { regex: "(a)\\\\1" } }\n    outcome: failed\n'],
  [
    'a regex nested 100,000 levels deep',
    `{"version":1,"rules":[{"match":{"text":{"regex":"${'('.repeat(100_000)}a${')'.repeat(100_000)}"}},"outcome":"failed"}]}`,
  ],
])('PUT /_emulator/scenario with %s answers SCENARIO_INVALID and keeps the scenario', async (_, text) => {
  const emulator = makeEmulator();
  const before = emulator.scenario.get();
  const reply = await call(emulator, 'PUT', '/_emulator/scenario', {
    raw: text,
    key: false,
    contentType: 'application/yaml',
  });
  expect(reply.status).toBe(400);
  expect(reply.body.message).toBe('SCENARIO_INVALID');
  expect(emulator.scenario.get()).toEqual(before);
});

// Node's timers hold at most 2^31 - 1 ms; a longer wait fires after 1 ms instead (with a warning), so it is refused.
test('wall-clock waits longer than a Node timer can hold (fault latency, webhook timeout and backoff) are refused, not cut to 1 ms', async () => {
  const emulator = makeEmulator();
  const fault = 'version: 1\nfaults:\n  - match: { operation: balance }\n    latency: 30d\n';
  const reply = await call(emulator, 'PUT', '/_emulator/scenario', {
    raw: fault,
    key: false,
    contentType: 'application/yaml',
  });
  expect(reply.body.message).toBe('SCENARIO_INVALID');
  expect(reply.body.description).toContain('faults[0].latency');
  expect(() => makeEmulator({ webhookTimeout: '30d' })).toThrow(/webhookTimeout/);
  expect(() => makeEmulator({ webhookBackoff: '25d' })).toThrow(/webhookBackoff/);
  expect(() => makeEmulator({ webhookTimeout: '24d', webhookBackoff: '24d' })).not.toThrow();
});
