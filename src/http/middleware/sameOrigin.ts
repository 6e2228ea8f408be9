/** The Origin check of the control API, the report and the live stream, as hono middleware. */

import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import { foreignOrigin } from '../checks/foreignOrigin.js';

/** Refuses a request from a page on another origin with ORIGIN_NOT_ALLOWED. */
export function requireSameOrigin(publicOrigin: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    const reason = foreignOrigin(c.req, publicOrigin);
    if (reason !== undefined) {
      throw new ApiError(
        'ORIGIN_NOT_ALLOWED',
        `The control API refused this request because ${reason}, not the emulator's own pages. Call it from curl, the library, connect() or a server (they send no Origin), or from the inbox at /_emulator/ui.`,
      );
    }
    await next();
  };
}
