/** Request signing as the spec describes it: the canonical field string and its HMAC-SHA256. */

import { type KeyObject, createHmac, createSecretKey } from 'node:crypto';

/** A request body as the API sees it: field name to value (arrays for repeated fields). */
export type RequestFields = Readonly<Record<string, unknown>>;

const reservedByRfc3986 = /[!'()*]/g;
const hasReservedByRfc3986 = /[!'()*]/;

/** RFC 3986: unreserved characters stay, everything else is %XX (a space is %20, never +). */
export function encodeRfc3986(value: string): string {
  const encoded = encodeURIComponent(value);
  // Most text has none of the five characters encodeURIComponent leaves as they are: skip the replace then.
  if (!hasReservedByRfc3986.test(encoded)) return encoded;
  return encoded.replace(reservedByRfc3986, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

function fieldText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text === '' ? undefined : text;
}

/**
 * The string that is signed: fields sorted by name, blank values dropped, `name=value` pairs
 * (an array gives `name[]=value` per non-blank item, in order), RFC 3986 encoded, joined with `&`.
 */
export function canonicalString(fields: RequestFields): string {
  const pairs: string[] = [];
  for (const name of sortedNames(fields)) {
    const value = fields[name];
    const key = encodeRfc3986(name);
    if (Array.isArray(value)) {
      for (const item of value) {
        const text = fieldText(item);
        if (text !== undefined) pairs.push(`${key}[]=${encodeRfc3986(text)}`);
      }
    } else {
      const text = fieldText(value);
      if (text !== undefined) pairs.push(`${key}=${encodeRfc3986(text)}`);
    }
  }
  return pairs.join('&');
}

/** Below this many fields, names are sorted in place by insertion (as Array#sort orders them: by UTF-16 code units). */
const fewNames = 16;

/**
 * A body's field names in Array#sort's order. A send has a handful of fields, and Array#sort's set-up allocates more
 * than the few names it sorts, on every signed request; a body with many fields still gets Array#sort (no n² path).
 */
function sortedNames(fields: RequestFields): string[] {
  const names = Object.keys(fields);
  if (names.length > fewNames) return names.sort();
  for (let i = 1; i < names.length; i++) {
    const name = names[i] as string;
    let j = i - 1;
    for (; j >= 0 && (names[j] as string) > name; j--) names[j + 1] = names[j] as string;
    names[j + 1] = name;
  }
  return names;
}

/**
 * The `Signature` header value for a request body: lowercase hex HMAC-SHA256 of its canonical string.
 *
 * @example
 * const signature = signRequest({ recipient: ['27831234567'], message: 'Hi' }, 'sk_test');
 */
export function signRequest(fields: RequestFields, signingSecret: string): string {
  return createHmac('sha256', secretKey(signingSecret)).update(canonicalString(fields)).digest('hex');
}

let lastSecret: string | undefined;
let lastKey: KeyObject | undefined;

/** The secret as a key object: made once for the secret signed with last (an HMAC from a string key prepares it each time). */
function secretKey(signingSecret: string): KeyObject {
  if (signingSecret !== lastSecret || lastKey === undefined) {
    lastKey = createSecretKey(Buffer.from(signingSecret, 'utf8'));
    lastSecret = signingSecret;
  }
  return lastKey;
}

/** Constant-time check of a `Signature` header against the body: every character is compared, whatever differs first. */
export function signatureMatches(fields: RequestFields, signingSecret: string, signature: string): boolean {
  const expected = signRequest(fields, signingSecret);
  const given = signature.trim().toLowerCase();
  if (given.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return difference === 0;
}
