/** Refuses plain HTTP with CONNECTION_INSECURE when HTTPS is required (behind a proxy too). */

import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import { requestScheme } from '../context.js';

export function requireHttps(): MiddlewareHandler {
  return async (c, next) => {
    if (requestScheme(c) !== 'https') throw new ApiError('CONNECTION_INSECURE', 'This emulator requires HTTPS; the request was made over plain HTTP.');
    await next();
  };
}
