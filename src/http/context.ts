/** What every API request carries through the middleware chain, and where it came in from. */

import type { Context } from 'hono';
import type { Account } from '../state/store.js';

export interface ApiVariables {
  account: Account;
}

export type ApiEnv = { Variables: ApiVariables };

/** The scheme the client used: X-Forwarded-Proto when it says `http` or `https` (anything else is ignored), else the request's own. */
export function requestScheme(c: Context): 'http' | 'https' {
  const forwarded = firstValue(c.req.header('x-forwarded-proto'))?.toLowerCase();
  if (forwarded === 'http' || forwarded === 'https') return forwarded;
  return c.req.url.startsWith('https:') ? 'https' : 'http';
}

/** A host, optionally with a port: names, IPv4 and bracketed IPv6 only, so a header cannot inject a path or a scheme into links. */
const hostPattern = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * `scheme://host` the client used, honouring X-Forwarded-Proto and X-Forwarded-Host so links
 * work behind a proxy and on any port; `publicOrigin` (the publicUrl option) wins over both.
 */
export function requestOrigin(c: Context, publicOrigin?: string): string {
  if (publicOrigin !== undefined) return publicOrigin;
  const url = c.req.url;
  const schemeEnd = url.indexOf('://');
  const hostOf = (value: string | undefined) => (value !== undefined && hostPattern.test(value) ? value : undefined);
  const host =
    hostOf(firstValue(c.req.header('x-forwarded-host'))) ?? hostOf(c.req.header('host')) ?? url.slice(schemeEnd + 3, url.indexOf('/', schemeEnd + 3));
  return `${requestScheme(c)}://${host}`;
}

function firstValue(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const comma = header.indexOf(',');
  return (comma < 0 ? header : header.slice(0, comma)).trim() || undefined;
}
