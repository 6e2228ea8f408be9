/** The 405 answer for a method a hono route does not serve, listing the ones it does. */

import type { Handler } from 'hono';
import { notAllowed } from '../checks/notAllowed.js';

export function methodNotAllowed(allowed: readonly string[]): Handler {
  return (c) => {
    throw notAllowed(c.req.method, allowed);
  };
}
