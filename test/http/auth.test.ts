/** Reading the API key from Basic authentication, header after header (the last one decoded is kept). */

import { expect, test } from 'vitest';
import { basicUsername } from '../../src/http/checks/basicUsername.js';

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

test('reads each request its own API key, whatever header came before', () => {
  expect(basicUsername(basic('pk_one:'))).toBe('pk_one');
  expect(basicUsername(basic('pk_one:'))).toBe('pk_one');
  expect(basicUsername(basic('pk_two:secret'))).toBe('pk_two');
  expect(basicUsername(undefined)).toBeUndefined();
  expect(basicUsername(basic(':'))).toBeUndefined();
  expect(basicUsername(basic(':'))).toBeUndefined();
  expect(basicUsername(basic('pk_one'))).toBe('pk_one');
  expect(basicUsername('Bearer x')).toBeUndefined();
  expect(basicUsername(`bASIC ${Buffer.from('pk_three:').toString('base64')}`)).toBe('pk_three');
});
