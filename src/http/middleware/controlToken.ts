/** The control token check, in one place: Bearer header (or a query parameter where a browser cannot set headers), compared in constant time. */

import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Hashing first makes both sides the same length, so the comparison time says nothing about the token. */
export function tokenMatches(given: string | undefined, token: string): boolean {
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/** The token of a `Bearer` header; the scheme name is case-insensitive (RFC 9110), so `bearer x` counts too. */
function bearer(header: string | undefined): string | undefined {
  return header !== undefined && /^bearer /i.test(header) ? header.slice(7) : undefined;
}

/**
 * Refuses a request without the token (CONTROL_UNAUTHORIZED). `queryParameter` also accepts it
 * from the query string, for the UI's EventSource stream, which cannot send headers.
 */
export function requireControlToken(token: string | undefined, queryParameter?: string): MiddlewareHandler {
  return async (c, next) => {
    if (token !== undefined) {
      const given = bearer(c.req.header('authorization')) ?? (queryParameter ? c.req.query(queryParameter) : undefined);
      if (!tokenMatches(given, token)) {
        throw new ApiError('CONTROL_UNAUTHORIZED', undefined, {
          'WWW-Authenticate': 'Bearer realm="sms-emulator control"',
        });
      }
    }
    await next();
  };
}
