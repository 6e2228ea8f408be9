/** The 405 answer for a method a route does not serve, listing the ones it does. */

import type { Handler } from 'hono';
import { ApiError } from '../../domain/errors.js';

export function methodNotAllowed(allowed: readonly string[]): Handler {
  const allow = allowed.join(', ');
  return (c) => {
    throw new ApiError('INVALID_HTTP_REQUEST_METHOD', `${c.req.method} is not allowed here; use ${allow}.`, { Allow: allow });
  };
}
