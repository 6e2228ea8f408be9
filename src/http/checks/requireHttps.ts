/** Refuses plain HTTP with CONNECTION_INSECURE when HTTPS is required (behind a proxy too). */

import { ApiError } from '../../domain/errors.js';
import { type RequestHead, requestScheme } from '../context.js';

export function requireHttps(request: RequestHead): void {
  if (requestScheme(request) !== 'https')
    throw new ApiError('CONNECTION_INSECURE', 'This emulator requires HTTPS; the request was made over plain HTTP.');
}
