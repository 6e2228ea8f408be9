/** The 405 error for a method a route does not serve, listing the ones it does. */

import { ApiError } from '../../domain/errors.js';

export function notAllowed(method: string, allowed: readonly string[]): ApiError {
  const allow = allowed.join(', ');
  return new ApiError('INVALID_HTTP_REQUEST_METHOD', `${method} is not allowed here; use ${allow}.`, { Allow: allow });
}
