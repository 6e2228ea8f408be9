/** HTTP Basic authentication: the API key is the username, the password blank. */

import { ApiError } from '../../domain/errors.js';
import { quoteExcerpt } from '../../domain/excerpt.js';
import type { Account, Scope, Store } from '../../state/store.js';

const challenge = { 'WWW-Authenticate': 'Basic realm="sms-emulator"' };

/** The API key in an Authorization header, or undefined when there is none to read. */
export function basicUsername(header: string | undefined): string | undefined {
  if (!header) return undefined;
  // A client sends the same header on every request: the last one decoded is kept (the base64 decoding showed in profiles).
  if (header === lastHeader) return lastUsername;
  lastUsername = decodeBasic(header);
  lastHeader = header;
  return lastUsername;
}

let lastHeader: string | undefined;
let lastUsername: string | undefined;

function decodeBasic(header: string): string | undefined {
  if (header.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const username = colon < 0 ? decoded : decoded.slice(0, colon);
  return username === '' ? undefined : username;
}

/** The account of `apiKey` (the Basic username), or UNAUTHORIZED / INVALID_API_KEY with the Basic challenge. */
export function authenticate(store: Store, apiKey: string | undefined): Account {
  if (apiKey === undefined) {
    throw new ApiError(
      'UNAUTHORIZED',
      'No authentication was supplied: send HTTP Basic with the API key as username.',
      challenge,
    );
  }
  const account = store.accounts.get(apiKey);
  if (!account) throw new ApiError('INVALID_API_KEY', `The API key ${quoteExcerpt(apiKey)} does not exist.`, challenge);
  return account;
}

export function requireScope(account: Account, scope: Scope): void {
  if (!account.scopes.includes(scope)) {
    throw new ApiError(
      'FORBIDDEN',
      `The API key "${account.apiKey}" may not perform "${scope}" (its scopes: ${account.scopes.join(', ') || 'none'}).`,
    );
  }
}
