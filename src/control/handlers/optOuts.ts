/** An account's opt-out list per environment: list it, opt a number out, opt it back in. */

import { defaultEnvironment } from '../../domain/environment.js';
import { ApiError } from '../../domain/errors.js';
import { quoteExcerpt } from '../../domain/excerpt.js';
import { paginate, type Page } from '../../domain/list.js';
import { isValidMsisdn } from '../../domain/msisdn.js';
import type { OptOutTarget } from '../inputs.js';
import { findAccount } from '../lookups.js';
import type { OperationDeps, Paged } from '../operation.js';
import type { OptOutView } from '../views.js';
import type { OperationTable } from '../operation.js';
import { optOutTarget } from '../inputs.js';
import { number, query } from '../argSpecs.js';

export function listOptOuts(
  { core }: OperationDeps,
  { page, limit, account, environment }: Paged<OptOutTarget>,
): Page<string> {
  const optOuts = findAccount(core, account ?? core.options.apiKey).environments[environment ?? defaultEnvironment]
    .optOuts;
  return paginate([...optOuts], page, limit);
}

export function addOptOut(deps: OperationDeps, number: string, target: OptOutTarget): OptOutView {
  return setOptOut(deps, number, true, target);
}

export function removeOptOut(deps: OperationDeps, number: string, target: OptOutTarget): OptOutView {
  return setOptOut(deps, number, false, target);
}

function setOptOut({ core }: OperationDeps, number: string, optedOut: boolean, target: OptOutTarget): OptOutView {
  const { account: apiKey = core.options.apiKey, environment = defaultEnvironment } = target;
  if (!isValidMsisdn(number))
    throw new ApiError('CONTROL_INVALID_REQUEST', `${quoteExcerpt(number)} is not a number such as 27831234567.`);
  core.accounts.setOptOut(findAccount(core, apiKey), environment, number, optedOut);
  return { account: apiKey, environment, number, optedOut };
}

export const optOutsRows = {
  list: {
    method: 'GET',
    path: '/opt-outs',
    answer: 'PhoneNumber',
    args: [query],
    input: optOutTarget,
    inputName: 'opt-out filter',
    pages: true,
    summary:
      'Numbers opted out of an account (`account`, default the default account) in an `environment` (default live).',
    run: listOptOuts,
  },
  add: {
    method: 'PUT',
    path: '/opt-outs/{number}',
    answer: 'OptOut',
    args: [number, query],
    input: optOutTarget,
    inputName: 'opt-out target',
    summary:
      'Opts a number out (same `account`, `environment` query); answers `{account, environment, number, optedOut}`.',
    run: addOptOut,
  },
  remove: {
    method: 'DELETE',
    path: '/opt-outs/{number}',
    answer: 'OptOut',
    args: [number, query],
    input: optOutTarget,
    inputName: 'opt-out target',
    summary: 'Opts a number back in (same `account`, `environment` query).',
    run: removeOptOut,
  },
} satisfies OperationTable['optOuts'];
