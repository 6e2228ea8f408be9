/** The 405 answer for a method a route does not serve, listing the ones it does. */

import type { Handler } from 'hono';
import { ApiError } from '../../domain/errors.js';

export function notAllowed(method: string, allowed: readonly string[]): ApiError {
  const allow = allowed.join(', ');
  return new ApiError('INVALID_HTTP_REQUEST_METHOD', `${method} is not allowed here; use ${allow}.`, { Allow: allow });
}

export function methodNotAllowed(allowed: readonly string[]): Handler {
  return (c) => {
    throw notAllowed(c.req.method, allowed);
  };
}
