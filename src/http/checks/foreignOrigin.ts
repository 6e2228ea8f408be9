/**
 * The Origin check of the control API, the report and the live stream: a browser says where a request comes from
 * (Origin, Sec-Fetch-Site), and only the emulator's own pages may change or read anything. Clients that send neither
 * header (curl, the library, Node's fetch, connect()) pass, so no content type or token is needed to tell them apart.
 */

import { quoteExcerpt } from '../../domain/excerpt.js';
import { type RequestHead, requestOrigin, requestScheme } from '../context.js';

/** Whether `origin` (an Origin header) is the emulator's own: the address the request came in on, the one a proxy forwarded it from, or publicUrl. */
function ownOrigin(origin: string, request: RequestHead, publicOrigin: string | undefined): boolean {
  const claimed = origin.toLowerCase();
  const host = request.header('host');
  // A cross-origin page cannot set X-Forwarded-Host (it is no simple header and the emulator answers no preflight),
  // and a page on a rebinding name is refused by the Host check before it gets here.
  return (
    (host !== undefined && claimed === `${requestScheme(request)}://${host.toLowerCase()}`) ||
    claimed === requestOrigin(request).toLowerCase() ||
    claimed === publicOrigin
  );
}

/** The reason a request from a browser is refused, or undefined when it may go on. */
export function foreignOrigin(request: RequestHead, publicOrigin: string | undefined): string | undefined {
  const site = request.header('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site')
    return `it came from a page on another site (Sec-Fetch-Site: ${site})`;
  const origin = request.header('origin');
  if (origin !== undefined && !ownOrigin(origin, request, publicOrigin))
    return `it came from a page on ${quoteExcerpt(origin)}`;
  return undefined;
}
