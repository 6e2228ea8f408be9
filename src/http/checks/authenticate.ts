/** HTTP Basic authentication: the account of an API key (the username, the password blank), and its scopes. */

import { ApiError } from '../../domain/errors.js';
import { quoteExcerpt } from '../../domain/excerpt.js';
import type { Account, Scope, Store } from '../../state/store.js';

const challenge = { 'WWW-Authenticate': 'Basic realm="sms-emulator"' };

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
