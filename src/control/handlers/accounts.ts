/** Accounts: list, read, create, change and delete them, what one spent, and sign a body with one's secret. */

import { ApiError } from '../../domain/errors.js';
import { paginate, type Page } from '../../domain/list.js';
import { environments, type MessageRecord } from '../../domain/message.js';
import { type Spend, accountSpend } from '../../domain/spend.js';
import { type RequestFields, canonicalString, signRequest } from '../../domain/signing.js';
import { type AccountView, accountView } from '../../engine/inspection.js';
import type { AccountInput, AccountPatch } from '../inputs.js';
import { announceAccount, disarmMessagesOf, findAccount } from '../lookups.js';
import type { OperationDeps, Paged } from '../operation.js';
import type { OperationTable } from '../operation.js';
import { accountInput, accountPatch, noFilter } from '../inputs.js';
import { body, key, query } from '../argSpecs.js';
import type { SignatureView } from '../views.js';

export function listAccounts({ core }: OperationDeps, { page, limit }: Paged): Page<AccountView> {
  return paginate([...core.store.accounts.values()].map(accountView), page, limit);
}

export function getAccount({ core }: OperationDeps, apiKey: string): AccountView {
  return accountView(findAccount(core, apiKey));
}

export function createAccount({ core }: OperationDeps, spec: AccountInput): AccountView {
  const account = core.accounts.create(spec);
  announceAccount(core, account.apiKey);
  return accountView(account);
}

export function updateAccount({ core }: OperationDeps, apiKey: string, change: AccountPatch): AccountView {
  const account = findAccount(core, apiKey);
  core.accounts.update(account, change);
  announceAccount(core, apiKey);
  return accountView(account);
}

/** Removes an account with its messages, replies, timers, webhook log entries and journal entries. */
export function deleteAccount({ core, journal }: OperationDeps, apiKey: string): void {
  const account = findAccount(core, apiKey);
  disarmMessagesOf(core, account);
  core.webhooks.forget(account);
  core.accounts.remove(apiKey);
  journal.clear(apiKey);
  announceAccount(core, apiKey);
}

/** What an account spent: its messages of both environments as the control API lists them (deleted scheduled ones too), in send order. */
export function getAccountSpend({ core }: OperationDeps, apiKey: string): Spend {
  const account = findAccount(core, apiKey);
  const sent = environments.flatMap((environment) => {
    const newestFirst: MessageRecord[] = [];
    core.store.select(environment, account, undefined, 0, Number.POSITIVE_INFINITY, newestFirst);
    return newestFirst.reverse();
  });
  return accountSpend(
    apiKey,
    sent.sort((a, b) => a.createdAt - b.createdAt),
  );
}

/** The signed string and Signature header for a body, with an account's secret (for curl users). */
export function signBody(
  { core }: OperationDeps,
  fields: unknown,
  apiKey: string = core.options.apiKey,
): SignatureView {
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    throw new ApiError('CONTROL_INVALID_REQUEST', 'Send the request body to sign as a JSON object.');
  }
  const secret = findAccount(core, apiKey).signingSecret;
  return {
    string_to_sign: canonicalString(fields as RequestFields),
    signature: signRequest(fields as RequestFields, secret),
  };
}

export const accountsRows = {
  list: {
    method: 'GET',
    path: '/accounts',
    answer: 'Account',
    args: [query],
    input: noFilter,
    inputName: 'account filter',
    pages: true,
    summary: 'Every account with balances, webhook URLs and opt-outs per environment, in creation order.',
    run: listAccounts,
  },
  get: {
    method: 'GET',
    path: '/accounts/{key}',
    answer: 'Account',
    args: [key],
    summary: 'One account.',
    run: getAccount,
  },
  create: {
    method: 'POST',
    path: '/accounts',
    answer: 'Account',
    args: [body],
    input: accountInput,
    inputName: 'account',
    status: 201,
    summary:
      "Creates an account: `apiKey` (pk_…), `signingSecret`, `webhookSigningSecret` (signs its webhooks; default the emulator's webhookSigningSecret, null unsigned), `balance`, `sandboxBalance`, `webhookUrl`, `sandboxWebhookUrl`, `scopes`, `clock` (a test clock id: the account lives on it). An existing key is `CONTROL_CONFLICT`.",
    run: createAccount,
  },
  update: {
    method: 'PATCH',
    path: '/accounts/{key}',
    answer: 'Account',
    args: [key, body],
    input: accountPatch,
    inputName: 'account change',
    summary:
      'Changes an account: `{"live": {"balance": 5, "addBalance": 10, "webhookUrl": "…"}, "sandbox": {…}, "signingSecret": "…", "webhookSigningSecret": "…" (or null: unsigned), "scopes": […]}`; a balance below 0 is refused.',
    run: updateAccount,
  },
  delete: {
    method: 'DELETE',
    path: '/accounts/{key}',
    args: [key],
    status: 204,
    summary: 'Removes the account with its messages, journal entries and webhook log entries (204, no body).',
    run: deleteAccount,
  },
  spend: {
    method: 'GET',
    path: '/accounts/{key}/spend',
    answer: 'Spend',
    args: [key],
    summary:
      'What the account spent, both environments: `credits`, `messages`, the five costliest (`top`: id, credit, recipients, encoding, segments, the first character that forced UCS-2 and the spender in one `line`), and the whole as a failure shows it (`summary`). An unknown key is `CONTROL_NOT_FOUND`.',
    run: getAccountSpend,
  },
} satisfies Partial<OperationTable['accounts']>;

export const signRow = {
  method: 'POST',
  path: '/sign',
  answer: 'Signature',
  args: [body, { in: 'query', name: 'account' }],
  summary:
    'Body = the fields to send; answers `{string_to_sign, signature}` with the secret of `?account=` (default account).',
  run: signBody,
} satisfies OperationTable['sign'];
