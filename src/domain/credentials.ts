/**
 * How a credential is shown wherever the emulator, the CLI and the recorder show things (logs, reports, the inbox,
 * transcripts, error texts, printed lines): a URL's password and an `Authorization` value's secret part are replaced by
 * one fixed mask, and the names that tell accounts apart (a URL's user name, a Basic user, which is the API key here)
 * are kept. Only what is shown is masked: what is stored and what is sent keep the credential (docs/security.md).
 */

/** What a hidden credential shows as. */
export const maskedCredential = '***';

/**
 * A scheme, `//` (or `\\`, which URL parsers read as `//` for http and https), then the authority up to the first
 * `/`, `?`, `#`, white space or a character no URL holds unencoded (so `"http://…"` quoted in a text ends at its quote).
 * A scheme starts only where no scheme character comes before it: a run of them is scanned once, from its start, not
 * again from each of its letters (with `\b`, `a.a.a.…` of 40 KB took 3 s, and twice that length four times as long).
 */
const authorityInText = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:[/\\]{2})([^\s/\\?#"<>`{}|^]*)/gi;

/**
 * The userinfo of an authority ends at its last `@` (a password may hold an unencoded `@`; the host never does), and
 * the password starts after the userinfo's first `:` (a user name never holds an unencoded `:`).
 */
function maskAuthority(authority: string): string {
  const at = authority.lastIndexOf('@');
  if (at < 0) return authority;
  const colon = authority.indexOf(':');
  if (colon < 0 || colon > at || colon === at - 1) return authority;
  return `${authority.slice(0, colon + 1)}${maskedCredential}${authority.slice(at)}`;
}

/**
 * Every URL in `text` with its password masked (`http://user:***@host/…`), the rest of the text as it was: for error
 * texts and printed lines that may quote a URL someone gave.
 *
 * @example
 * maskUrlsInText('cannot reach http://hooks:s3cret@127.0.0.1:4000/sms'); // 'cannot reach http://hooks:***@127.0.0.1:4000/sms'
 */
export function maskUrlsInText(text: string): string {
  // The common case, a text with no userinfo at all, costs one scan and no copy.
  if (!text.includes('@')) return text;
  return text.replace(authorityInText, (_, scheme: string, authority: string) => scheme + maskAuthority(authority));
}

/**
 * A URL with its password masked, as written otherwise (not normalised). A URL the text scan cannot see a password in
 * but a URL parser would (`http:user:pw@host`, white space inside) is shown in the parser's normal form, masked.
 *
 * @example
 * maskUrlCredentials('https://hooks:s3cret@example.test/sms'); // 'https://hooks:***@example.test/sms'
 */
export function maskUrlCredentials(url: string): string {
  if (!url.includes('@')) return url;
  const masked = maskUrlsInText(url);
  if (!URL.canParse(masked)) return masked;
  const parsed = new URL(masked);
  if (parsed.password === '' || parsed.password === maskedCredential) return masked;
  parsed.password = maskedCredential;
  return parsed.href;
}

/**
 * An `Authorization` or `Proxy-Authorization` value with its secret masked, its scheme word kept: `Bearer ***`,
 * `Digest ***`, a bare token `***`. A Basic value keeps its user (the API key, the account's public name here) and masks
 * a non-empty password, still as a Basic value (`Basic base64("key:***")`, which the emulator reads as the same key); a
 * Basic value with no user, or one that is not base64, is `Basic ***`. A blank password is nothing
 * to hide: that value is kept as it is.
 *
 * @example
 * maskAuthorization('Bearer eyJhbGciOi…'); // 'Bearer ***'
 */
export function maskAuthorization(value: string): string {
  const match = /^(\s*)(\S+)(\s+)(\S.*)$/s.exec(value);
  if (match === null) return value.trim() === '' ? value : maskedCredential;
  const [, lead, scheme, gap] = match as unknown as [string, string, string, string];
  const shown = (secret: string): string => `${lead}${scheme}${gap}${secret}`;
  if (scheme.toLowerCase() !== 'basic') return shown(maskedCredential);
  const basic = basicCredentials(value);
  if (basic === undefined) return shown(maskedCredential);
  if (basic.password === '') return value;
  return shown(Buffer.from(`${basic.user}:${maskedCredential}`, 'utf8').toString('base64'));
}

/**
 * The user and password of a Basic `Authorization` value (no `:` at all is a user without a password, as the emulator
 * reads it), or undefined for another scheme, credentials that are not base64, or no user.
 *
 * @example
 * basicCredentials('Basic cGtfdGVzdDo='); // { user: 'pk_test', password: '' }
 */
export function basicCredentials(value: string): { user: string; password: string } | undefined {
  const match = /^\s*basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(value);
  if (match === null) return undefined;
  const pair = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = pair.indexOf(':');
  if (colon < 0) return pair === '' ? undefined : { user: pair, password: '' };
  if (colon === 0) return undefined;
  return { user: pair.slice(0, colon), password: pair.slice(colon + 1) };
}
