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
  });
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
