import { expect, test } from 'vitest';
import { canonicalString, signRequest } from '../../src/index.js';
import { encodeRfc3986, signatureMatches } from '../../src/domain/signing.js';

test('sorts fields by name, gives name[]=value per array item in order, and encodes spaces as %20', () => {
  const fields = { recipient: ['27831234567', '27831234568'], message: 'Hello world!', client_reference: 'order 42' };
  expect(canonicalString(fields)).toBe(
    'client_reference=order%2042&message=Hello%20world%21&recipient[]=27831234567&recipient[]=27831234568',
  );
  // Vector computed independently with: printf '%s' '<string>' | openssl dgst -sha256 -hmac sk_test_sms_emulator
  expect(signRequest(fields, 'sk_test_sms_emulator')).toBe(
    '5a08655a8bb41201d085d12ba839c5fb9603591f80799db11de6f6bdf55f23e6',
  );
});

test('encodes unicode as UTF-8 percent escapes', () => {
  const fields = { message: 'Café €5 😀', recipient: ['27831234567'] };
  expect(canonicalString(fields)).toBe('message=Caf%C3%A9%20%E2%82%AC5%20%F0%9F%98%80&recipient[]=27831234567');
  expect(signRequest(fields, 'secret')).toBe('eec90ad57dc7d4ab8acf1160b1fd5b9b99ec19633b732dbdc232d214e81844ae');
});

test('drops blank values and blank array items, keeps unknown fields', () => {
  expect(
    canonicalString({
      message: 'Hi',
      client_reference: '',
      schedule: null,
      extra: 'x',
      recipient: ['', '27831234567'],
    }),
  ).toBe('extra=x&message=Hi&recipient[]=27831234567');
});

test('reads numbers and booleans as their text', () => {
  expect(canonicalString({ message: 42, flag: true })).toBe('flag=true&message=42');
});

test('encodes the RFC 3986 reserved characters that encodeURIComponent leaves alone', () => {
  expect(encodeRfc3986("it's (a)*test!~-_.")).toBe('it%27s%20%28a%29%2Atest%21~-_.');
  expect(encodeRfc3986('a+b=c&d/e')).toBe('a%2Bb%3Dc%26d%2Fe');
});

test('accepts the right signature in any letter case and refuses a wrong or truncated one', () => {
  const fields = { message: 'Hi', recipient: ['27831234567'] };
  const signature = signRequest(fields, 'secret');
  expect(signatureMatches(fields, 'secret', signature)).toBe(true);
  expect(signatureMatches(fields, 'secret', signature.toUpperCase())).toBe(true);
  expect(signatureMatches(fields, 'other', signature)).toBe(false);
  expect(signatureMatches(fields, 'secret', signature.slice(0, 10))).toBe(false);
});

test('signs and checks with whichever secret it is given, one after another (the last key made is reused only for its own secret)', () => {
  const fields = { recipient: ['27831234567'], message: 'Hi' };
  const first = signRequest(fields, 'secret-one');
  const second = signRequest(fields, 'secret-two');
  expect(second).not.toBe(first);
  expect(signRequest(fields, 'secret-one')).toBe(first);
  expect(signatureMatches(fields, 'secret-two', first)).toBe(false);
  expect(signatureMatches(fields, 'secret-one', first)).toBe(true);
  expect(signatureMatches(fields, 'secret-two', ` ${second.toUpperCase()} `)).toBe(true);
  expect(signatureMatches(fields, '', signRequest(fields, ''))).toBe(true);
});

test('refuses a signature of the wrong length or with one character changed', () => {
  const fields = { recipient: ['27831234567'], message: 'Hi' };
  const signature = signRequest(fields, 'sk');
  expect(signatureMatches(fields, 'sk', signature.slice(1))).toBe(false);
  expect(signatureMatches(fields, 'sk', `${signature}0`)).toBe(false);
  const last = signature.at(-1) === '0' ? '1' : '0';
  expect(signatureMatches(fields, 'sk', signature.slice(0, -1) + last)).toBe(false);
  expect(signatureMatches(fields, 'sk', '')).toBe(false);
});

test('orders field names by UTF-16 code units, as Array#sort does, for a few fields and for many', () => {
  // Upper case before lower, digits before letters, a prefix before its extensions, and non-ASCII last.
  const few = ['message', 'Z', 'recipient', 'a1', 'a', 'é', '_', 'A', 'recipient2', '0'];
  const many = Array.from({ length: 40 }, (_, i) => `f${(i * 7919) % 97}${i % 3 === 0 ? 'X' : 'x'}`);
  // Integer-like names come first from Object.keys, in numeric order, and must still sort as text ('10' before '2').
  const integerLike = ['10', '2', '0', '01', '-1', '1.5', '4294967295', '9', 'b', 'B'];
  // A character above U+FFFF sorts by its surrogates, below U+FFFF itself.
  const astral = ['\u{1F600}', '\uFFFF', '\u{10000}', 'e\u0301', 'é', '__proto__', 'constructor'];
  // Either side of the switch from the in-place sort to Array#sort, in reverse order.
  const sides = [16, 17].map((length) => Array.from({ length }, (_, i) => `n${String(length - i).padStart(2, '0')}`));
  for (const names of [few, many, integerLike, astral, ...sides]) {
    const fields: Record<string, string> = {};
    // Defined as own fields, as a JSON body gives them (`__proto__` included).
    for (const name of names) Object.defineProperty(fields, name, { value: 'v', enumerable: true });
    const expected = [...names]
      .sort()
      .map((name) => `${encodeRfc3986(name)}=v`)
      .join('&');
    expect(canonicalString(fields)).toBe(expected);
  }
});
