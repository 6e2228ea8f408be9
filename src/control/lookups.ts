/** What several handlers look up or announce: an account or message by its id (CONTROL_NOT_FOUND when unknown), and a change. */

import { ApiError } from '../domain/errors.js';
import { environments, type MessageRecord } from '../domain/message.js';
import { quoteExcerpt } from '../domain/excerpt.js';
import type { Core } from '../engine/core.js';
import type { Account } from '../state/store.js';

export function findAccount(core: Core, apiKey: string): Account {
  const account = core.store.accounts.get(apiKey);
  if (!account) throw new ApiError('CONTROL_NOT_FOUND', `No account has the API key ${quoteExcerpt(apiKey)}.`);
  return account;
}

export function findMessage(core: Core, id: string): MessageRecord {
  for (const environment of environments) {
    const message = core.store.message(environment, id);
    if (message) return message;
  }
  throw new ApiError('CONTROL_NOT_FOUND', `No message has the id ${quoteExcerpt(id)} in either environment.`);
}

/** Announced so live views (the web inbox) show the account as it is now. */
export function announceAccount(core: Core, apiKey: string): void {
  core.events.emit('account.changed', { apiKey });
}

/** Cancels the schedule timers of an account's messages (delivery steps stop by themselves once a message is gone). */
export function disarmMessagesOf(core: Core, account: Account): void {
  for (const environment of environments)
    for (const message of account.environments[environment].messages) core.lifecycle.disarm(account, message);
}
