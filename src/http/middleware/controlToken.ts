/** The control token as hono middleware: Bearer header, or a query parameter where a browser cannot set headers. */

import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import { bearerToken, tokenMatches } from '../checks/tokenMatches.js';

/**
 * Refuses a request without the token (CONTROL_UNAUTHORIZED). `queryParameter` also accepts it
 * from the query string, for the UI's EventSource stream, which cannot send headers.
 */
export function requireControlToken(token: string | undefined, queryParameter?: string): MiddlewareHandler {
  return async (c, next) => {
    if (token !== undefined) {
      const given =
        bearerToken(c.req.header('authorization')) ?? (queryParameter ? c.req.query(queryParameter) : undefined);
      if (!tokenMatches(given, token)) {
        throw new ApiError('CONTROL_UNAUTHORIZED', undefined, {
          'WWW-Authenticate': 'Bearer realm="sms-emulator control"',
        });
      }
    }
    await next();
  };
}
