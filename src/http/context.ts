/** Where a request came in from: the scheme and origin its links use, read alike from hono's request and the fast lane's. */

/** What these rules read of a request: hono's `c.req` and the fast lane's request record both have it. */
export interface RequestHead {
  readonly url: string;
  header(name: string): string | undefined;
}

/** The scheme the client used: X-Forwarded-Proto when it says `http` or `https` (anything else is ignored), else the request's own. */
export function requestScheme(request: RequestHead): 'http' | 'https' {
  const forwarded = firstValue(request.header('x-forwarded-proto'))?.toLowerCase();
  if (forwarded === 'http' || forwarded === 'https') return forwarded;
  return request.url.startsWith('https:') ? 'https' : 'http';
}

/** A host, optionally with a port: names, IPv4 and bracketed IPv6 only, so a header cannot inject a path or a scheme into links. */
const hostPattern = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * `scheme://host` the client used, honouring X-Forwarded-Proto and X-Forwarded-Host so links
 * work behind a proxy and on any port; `publicOrigin` (the publicUrl option) wins over both.
 */
export function requestOrigin(request: RequestHead, publicOrigin?: string): string {
  if (publicOrigin !== undefined) return publicOrigin;
  const url = request.url;
  const schemeEnd = url.indexOf('://');
  const hostOf = (value: string | undefined) => (value !== undefined && hostPattern.test(value) ? value : undefined);
  const host =
    hostOf(firstValue(request.header('x-forwarded-host'))) ??
    hostOf(request.header('host')) ??
    url.slice(schemeEnd + 3, url.indexOf('/', schemeEnd + 3));
  return `${requestScheme(request)}://${host}`;
}

function firstValue(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const comma = header.indexOf(',');
  return (comma < 0 ? header : header.slice(0, comma)).trim() || undefined;
}
