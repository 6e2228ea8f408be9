/** What every API request carries through the middleware chain, and where it came in from. */

import type { Context } from 'hono';
import type { Account } from '../state/store.js';

export interface ApiVariables {
  account: Account;
}

export type ApiEnv = { Variables: ApiVariables };

/**
 * `scheme://host` the client used, honouring X-Forwarded-Proto and X-Forwarded-Host so links
 * work behind a proxy and on any port.
 */
export function requestOrigin(c: Context): string {
  const url = c.req.url;
  const schemeEnd = url.indexOf('://');
  const proto = firstValue(c.req.header('x-forwarded-proto')) ?? url.slice(0, schemeEnd);
  const host = firstValue(c.req.header('x-forwarded-host')) ?? c.req.header('host') ?? url.slice(schemeEnd + 3, url.indexOf('/', schemeEnd + 3));
  return `${proto}://${host}`;
}

function firstValue(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const comma = header.indexOf(',');
  return (comma < 0 ? header : header.slice(0, comma)).trim() || undefined;
}
