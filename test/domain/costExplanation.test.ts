/** explainCost: why a text costs what it costs, and what the team usually meant. */

import { expect, test } from 'vitest';
import { explainCost } from '../../src/domain/costExplanation.js';

test('a GSM-7 text has no triggers and no fix', () => {
  expect(explainCost('Your code is 1234', { recipients: 3 })).toEqual({
    encoding: 'GSM-7',
    units: 17,
    segments: 1,
    recipients: 3,
    pricing: 'per-segment',
    credits: 3,
    triggers: [],
    fix: null,
    breakdown: 'GSM-7, 17 septets, 1 segment: "Your code is 1234"',
  });
});

test('the breakdown names each trigger with its position, code point, name and what was meant, then the fix', () => {
  expect(explainCost('It’s ready').breakdown).toBe(
    'UCS-2, 10 UTF-16 units, 1 segment: "It’s ready"\n  position 3: "’" U+2019 RIGHT SINGLE QUOTATION MARK, use "\'"\n  with those replaced: GSM-7, 1 segment',
  );
  expect(explainCost('☃ snow').breakdown).toBe(
    'UCS-2, 6 UTF-16 units, 1 segment: "☃ snow"\n  position 1: "☃" U+2603 (no GSM-7 equivalent)',
  );
  const many = explainCost(`${'’'.repeat(12)}${'x'.repeat(100)}`).breakdown.split('\n');
  expect(many[0]).toMatch(/^UCS-2, 112 UTF-16 units, 2 segments: "’{12}x{68}…"$/);
  expect(many.slice(10)).toEqual([
    '  position 10: "’" U+2019 RIGHT SINGLE QUOTATION MARK, use "\'"',
    '  … and 2 more',
    '  with those replaced: GSM-7, 1 segment',
  ]);
});

test('a curly apostrophe is named at its position with the straight one it meant, and the fix costs less', () => {
  const text = `It’s ready: ${'x'.repeat(100)}`;
  const explained = explainCost(text, { recipients: 2 });
  expect(explained).toMatchObject({ encoding: 'UCS-2', segments: 2, credits: 4 });
  expect(explained.triggers).toEqual([
    { char: '’', codePoint: 'U+2019', name: 'RIGHT SINGLE QUOTATION MARK', position: 3, index: 2, suggestion: "'" },
  ]);
  expect(explained.fix).toEqual({ text: `It's ready: ${'x'.repeat(100)}`, encoding: 'GSM-7', segments: 1, credits: 2 });
});

test('a decomposed é is reported at its combining accent and fixed by composing it, an en dash by a hyphen', () => {
  const explained = explainCost('Cafe\u0301 9–5');
  expect(explained.triggers.map((t) => [t.codePoint, t.position, t.index, t.suggestion])).toEqual([
    ['U+0301', 5, 4, 'é'],
    ['U+2013', 8, 7, '-'],
  ]);
  expect(explained.fix?.text).toBe('Café 9-5');
});

test('positions count characters while indexes count UTF-16 units past an emoji', () => {
  const explained = explainCost('😀 ok’');
  expect(explained.triggers.map((t) => [t.char, t.position, t.index, t.suggestion])).toEqual([
    ['😀', 1, 0, null],
    ['’', 5, 5, "'"],
  ]);
  expect(explained.fix).toBeNull();
});

test('priced per message, a long UCS-2 text still costs one credit per recipient', () => {
  expect(explainCost('ê'.repeat(200), { recipients: 2, pricing: 'per-message' }).credits).toBe(2);
});
