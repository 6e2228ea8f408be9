import { expect, test } from 'vitest';
import { countSegments } from '../../src/index.js';
import { sendCost, ucs2Trigger } from '../../src/domain/segments.js';

test.each([
  ['', 'GSM-7', 0, 1],
  ['Hello', 'GSM-7', 5, 1],
  ['a'.repeat(160), 'GSM-7', 160, 1],
  ['a'.repeat(161), 'GSM-7', 161, 2],
  ['a'.repeat(306), 'GSM-7', 306, 2],
  ['a'.repeat(307), 'GSM-7', 307, 3],
  ['€'.repeat(80), 'GSM-7', 160, 1],
  ['€'.repeat(81), 'GSM-7', 162, 2],
  ['[]{}^~\\|', 'GSM-7', 16, 1],
  ['Ça coûte 5£ à Zürich', 'UCS-2', 20, 1],
  ['é'.repeat(160), 'GSM-7', 160, 1],
  ['ê', 'UCS-2', 1, 1],
  ['ê'.repeat(70), 'UCS-2', 70, 1],
  ['ê'.repeat(71), 'UCS-2', 71, 2],
  ['ê'.repeat(134), 'UCS-2', 134, 2],
  ['ê'.repeat(135), 'UCS-2', 135, 3],
  ['😀'.repeat(35), 'UCS-2', 70, 1],
  ['😀'.repeat(36), 'UCS-2', 72, 2],
  ['a'.repeat(152) + '€' + 'a'.repeat(152), 'GSM-7', 306, 3],
  ['a'.repeat(153) + '€' + 'a'.repeat(151), 'GSM-7', 306, 2],
  ['a'.repeat(151) + '€' + 'a'.repeat(153), 'GSM-7', 306, 2],
  ['€'.repeat(153), 'GSM-7', 306, 3],
  ['ê'.repeat(66) + '😀' + 'ê'.repeat(66), 'UCS-2', 134, 3],
  ['ê'.repeat(65) + '😀' + 'ê'.repeat(67), 'UCS-2', 134, 2],
  ['😀'.repeat(67), 'UCS-2', 134, 3],
])('counts %j as %s, %i units, %i segment(s)', (text, encoding, units, segments) => {
  expect(countSegments(text)).toEqual({ encoding, units, segments });
});

test('an escape pair or a surrogate pair at a part boundary moves whole to the next part and is charged for it', () => {
  expect(sendCost('a'.repeat(152) + '€' + 'a'.repeat(152), 2, 'per-segment')).toBe(6);
  expect(sendCost('ê'.repeat(66) + '😀' + 'ê'.repeat(66), 1, 'per-segment')).toBe(3);
});

test('a send costs segments × recipients, or one per recipient when priced per message', () => {
  expect(sendCost('a'.repeat(200), 3, 'per-segment')).toBe(6);
  expect(sendCost('a'.repeat(200), 3, 'per-message')).toBe(3);
  expect(sendCost('', 2, 'per-segment')).toBe(2);
});

test.each([
  ['Hello [world] €5', undefined],
  ['Ça coûte 5£', 'û'],
  ['Meet at 10 👍 ok', '👍'],
  ['', undefined],
])('ucs2Trigger names the first character that forces UCS-2 in %j', (text, expected) => {
  expect(ucs2Trigger(text)).toBe(expected);
});
