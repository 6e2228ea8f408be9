import { expect, test } from 'vitest';
import {
  basicCredentials,
  maskAuthorization,
  maskUrlCredentials,
  maskUrlsInText,
  maskedCredential,
} from '../../src/domain/credentials.js';

const basic = (pair: string): string => `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;

test('masks the password of a URL and keeps its user, host, port, path and query as written', () => {
  expect(maskUrlCredentials('https://hooks:s3cret@example.test:8443/sms?x=1#top')).toBe(
    'https://hooks:***@example.test:8443/sms?x=1#top',
  );
  expect(maskedCredential).toBe('***');
});

test('masks a password holding an unencoded @ or : whole, up to the last @ before the host', () => {
  expect(maskUrlCredentials('http://user:p@ss:w@rd@127.0.0.1:4000/hook')).toBe('http://user:***@127.0.0.1:4000/hook');
  expect(new URL(maskUrlCredentials('http://user:p@ss@127.0.0.1/')).hostname).toBe('127.0.0.1');
});

test('masks a percent-encoded password and keeps a percent-encoded user as written', () => {
  expect(maskUrlCredentials('http://us%3Aer:p%40ss%20word@example.test/')).toBe('http://us%3Aer:***@example.test/');
});

test('masks the password before an IPv6 host and leaves an IPv6 host without credentials alone', () => {
  expect(maskUrlCredentials('http://u:pw@[::1]:4000/hook')).toBe('http://u:***@[::1]:4000/hook');
  expect(maskUrlCredentials('http://[::1]:4000/hook?to=a@b')).toBe('http://[::1]:4000/hook?to=a@b');
});

test('leaves a URL without a password as it is: no userinfo, a user only, a blank password, an @ after the host', () => {
  for (const url of [
    'http://127.0.0.1:4000/hook',
    'http://hooks@127.0.0.1:4000/hook',
    'http://hooks:@127.0.0.1:4000/hook',
    'http://127.0.0.1:4000/path@here?mail=a@b#c@d',
  ])
    expect(maskUrlCredentials(url)).toBe(url);
});

test('masks a password a URL parser finds where the text has no //: shown in the parser form', () => {
  expect(maskUrlCredentials('http:u:pw-hidden@127.0.0.1:4000/hook')).toBe('http://u:***@127.0.0.1:4000/hook');
});

test('masks malformed URL text that still has userinfo, and leaves text that is no URL alone', () => {
  expect(maskUrlCredentials('http://u:pw-hidden@exa mple/')).toBe('http://u:***@exa mple/');
  expect(maskUrlCredentials('not a url: pw@host')).toBe('not a url: pw@host');
  expect(maskUrlCredentials('')).toBe('');
});

test('masks every URL quoted in a text and nothing else', () => {
  expect(
    maskUrlsInText(
      '--upstream "http://u:one@a.test" is not a URL; nor ftp://v:two@b.test/x, nor mail me@c.test: http://d.test',
    ),
  ).toBe('--upstream "http://u:***@a.test" is not a URL; nor ftp://v:***@b.test/x, nor mail me@c.test: http://d.test');
  const json = JSON.stringify({ url: 'http://host.test', to: 'a@b.test', other: 'http://u:pw@e.test' });
  expect(JSON.parse(maskUrlsInText(json))).toEqual({
    url: 'http://host.test',
    to: 'a@b.test',
    other: 'http://u:***@e.test',
  });
});

test('masks the credential of every Authorization scheme and keeps the scheme word', () => {
  expect(maskAuthorization('Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig')).toBe('Bearer ***');
  expect(maskAuthorization('bearer  token')).toBe('bearer  ***');
  expect(maskAuthorization('Digest username="a", response="b"')).toBe('Digest ***');
  expect(maskAuthorization('just-a-token')).toBe('***');
  expect(maskAuthorization('')).toBe('');
});

test('keeps a Basic user (the API key) and masks its password, still as a Basic value the emulator reads as the key', () => {
  const masked = maskAuthorization(basic('pk_live_abc:pw-hidden'));
  expect(masked).toBe(basic('pk_live_abc:***'));
  expect(basicCredentials(masked)).toEqual({ user: 'pk_live_abc', password: '***' });
});

test('keeps a Basic value with a blank password or none, and masks one with no user or not base64 whole', () => {
  expect(maskAuthorization(basic('pk_test:'))).toBe(basic('pk_test:'));
  expect(maskAuthorization(basic('pk_test'))).toBe(basic('pk_test'));
  expect(maskAuthorization(basic(':pw-hidden'))).toBe('Basic ***');
  expect(maskAuthorization('Basic not*base64')).toBe('Basic ***');
});

test('reads the user and password of a Basic value, and nothing of another scheme', () => {
  expect(basicCredentials(basic('pk_test:a:b'))).toEqual({ user: 'pk_test', password: 'a:b' });
  expect(basicCredentials(basic('pk_test'))).toEqual({ user: 'pk_test', password: '' });
  expect(basicCredentials(basic(''))).toBeUndefined();
  expect(basicCredentials('Bearer abc')).toBeUndefined();
});

// Each start inside a run of scheme characters used to scan the rest of the run again: 120 KB of them took about 15 s
// (and the URL of an account is masked each time its view is shown); now the run is scanned once. The test would time out.
test('masks a long run of scheme characters at once, in a text and in a URL', () => {
  const run = 'a.'.repeat(60_000);
  expect(maskUrlsInText(`${run}@`)).toBe(`${run}@`);
  expect(maskUrlCredentials(`http://u:pw-hidden@127.0.0.1:4000/${run}`)).toBe(`http://u:***@127.0.0.1:4000/${run}`);
});
