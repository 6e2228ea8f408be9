import { expect, test } from 'vitest';
import { quoteExcerpt } from '../../src/domain/excerpt.js';

test('quotes a short value whole and a long one cut to 64 characters with an ellipsis', () => {
  expect(quoteExcerpt('lost')).toBe('"lost"');
  expect(quoteExcerpt('x'.repeat(64))).toBe(`"${'x'.repeat(64)}"`);
  expect(quoteExcerpt('x'.repeat(65))).toBe(`"${'x'.repeat(64)}…"`);
});

test('never cuts a surrogate pair in half', () => {
  const value = `${'a'.repeat(63)}😀${'b'.repeat(10)}`;
  expect(quoteExcerpt(value)).toBe(`"${'a'.repeat(63)}…"`);
});
