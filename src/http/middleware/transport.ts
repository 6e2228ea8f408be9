/** Refuses plain HTTP with CONNECTION_INSECURE when HTTPS is required (behind a proxy too). */

import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';

export function requireHttps(): MiddlewareHandler {
  return async (c, next) => {
    const forwarded = c.req.header('x-forwarded-proto');
    const secure = forwarded ? forwarded.split(',')[0]?.trim() === 'https' : c.req.url.startsWith('https:');
    if (!secure) throw new ApiError('CONNECTION_INSECURE', 'This emulator requires HTTPS; the request was made over plain HTTP.');
    await next();
  };
}
