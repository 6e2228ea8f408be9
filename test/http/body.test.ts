import { expect, test } from 'vitest';
import { ApiError } from '../../src/index.js';
import { decodeBody, decodeControlBody } from '../../src/http/body.js';
import { maxJsonDepth } from '../../src/domain/jsonScan.js';

const encode = (text: string) => new TextEncoder().encode(text);

function codeOf(bytes: Uint8Array, contentType = 'application/json'): string {
  try {
    decodeBody(bytes, contentType);
    return 'ok';
  } catch (error) {
    return (error as ApiError).code;
  }
}

test.each([
  ['{"message": "hi"', 'JSON_INVALID_SYNTAX'],
  ["{'message': 'hi'}", 'JSON_INVALID_SYNTAX'],
  ['{"message": "a\u0001b"}', 'JSON_ERROR_CTRL_CHAR'],
  ['{"message": "line\nbreak"}', 'JSON_ERROR_CTRL_CHAR'],
  ['{"recipient": ["27831234567"}', 'JSON_MALFORMED'],
  ['{"a": 1}}', 'JSON_MALFORMED'],
  ['[1, 2]', 'JSON_UNKNOWN'],
  ['"text"', 'JSON_UNKNOWN'],
  ['null', 'JSON_UNKNOWN'],
  ['{"a": {"b": [1]}}', 'ok'],
])('classifies %j as %s', (text, code) => {
  expect(codeOf(encode(text))).toBe(code);
});

test('refuses malformed UTF-8 with JSON_MALFORMED_UTF8', () => {
  expect(codeOf(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]))).toBe('JSON_MALFORMED_UTF8');
});

test(`accepts nesting of ${maxJsonDepth} levels and refuses deeper with JSON_EXCEEDED`, () => {
  const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
  expect(codeOf(encode(nested(maxJsonDepth)))).toBe('ok');
  expect(codeOf(encode(nested(maxJsonDepth + 1)))).toBe('JSON_EXCEEDED');
});

test('reads form bodies: name[] as arrays, a single name as a string', () => {
  const fields = decodeBody(
    encode('recipient[]=27831234567&recipient[]=27831234568&message=Hi+there%21&client_reference=x'),
    'application/x-www-form-urlencoded',
  );
  expect(fields).toEqual({ recipient: ['27831234567', '27831234568'], message: 'Hi there!', client_reference: 'x' });
  expect(decodeBody(encode('recipient=27831234567'), 'application/x-www-form-urlencoded')).toEqual({
    recipient: '27831234567',
  });
});

test('treats an empty body as no fields and a body without content type as JSON', () => {
  expect(decodeBody(encode(''), undefined)).toEqual({});
  expect(decodeBody(encode('{"message":"x"}'), undefined)).toEqual({ message: 'x' });
});

test.each([
  ['{"message": "hi \\ud800"}', 'JSON_MALFORMED_UTF8'],
  ['{"message": "\\udc00 first"}', 'JSON_MALFORMED_UTF8'],
  ['{"recipient": ["27831234567", "\\uDBFF"]}', 'JSON_MALFORMED_UTF8'],
  ['{"nested": {"deep": ["\\ud83d"]}}', 'JSON_MALFORMED_UTF8'],
  ['{"key\\ud800": "value"}', 'JSON_MALFORMED_UTF8'],
  ['{"message": "a pair \\ud83d\\ude00 is fine"}', 'ok'],
  ['{"message": "an escaped backslash \\\\ud800 is text"}', 'ok'],
  ['{"message": "\\u0041"}', 'ok'],
])('refuses a lone surrogate escape: %j is %s', (text, code) => {
  expect(codeOf(encode(text))).toBe(code);
});

test('refuses control bodies with a lone surrogate, deep nesting or bad syntax as CONTROL_INVALID_REQUEST', () => {
  const controlCode = (text: string) => {
    try {
      decodeControlBody(encode(text));
      return 'ok';
    } catch (error) {
      return (error as ApiError).code;
    }
  };
  expect(controlCode('{"message": "\\ud800"}')).toBe('CONTROL_INVALID_REQUEST');
  expect(controlCode(`{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`)).toBe('CONTROL_INVALID_REQUEST');
  expect(controlCode('{"a":')).toBe('CONTROL_INVALID_REQUEST');
  expect(controlCode('[1, "\\ud83d\\ude00"]')).toBe('ok');
  expect(decodeControlBody(encode('  '))).toEqual({});
});
