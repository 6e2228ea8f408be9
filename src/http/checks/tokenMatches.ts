/** The control token check: the token a request gives (a Bearer header), compared in constant time. */

import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Hashing first makes both sides the same length, so the comparison time says nothing about the token. */
export function tokenMatches(given: string | undefined, token: string): boolean {
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/** The token of a `Bearer` header; the scheme name is case-insensitive (RFC 9110), so `bearer x` counts too. */
export function bearerToken(header: string | undefined): string | undefined {
  return header !== undefined && /^bearer /i.test(header) ? header.slice(7) : undefined;
}
