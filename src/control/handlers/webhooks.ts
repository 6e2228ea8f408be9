/** The webhook log: list and read events, post one again, wait for tries under way, and receiver chaos. */

import { ApiError } from '../../domain/errors.js';
import { quoteExcerpt } from '../../domain/excerpt.js';
import { paginate, type Page } from '../../domain/list.js';
import { parseDuration } from '../../domain/time.js';
import type { Clock } from '../../state/clock.js';
import type { WebhookEvent } from '../../webhooks/log.js';
import type { AccountScope, WebhookChaosInput, WebhookFilterInput } from '../inputs.js';
import { findAccount } from '../lookups.js';
import type { OperationDeps, Paged } from '../operation.js';
import { type ChaosView, chaosView } from '../views.js';

export function list(
  { core }: OperationDeps,
  { page, limit, ...filter }: Paged<WebhookFilterInput>,
): Page<WebhookEvent> {
  return paginate(core.webhooks.log.list(filter), page, limit);
}

export function get({ core }: OperationDeps, id: string): WebhookEvent {
  const event = core.webhooks.log.get(id);
  if (!event) throw new ApiError('CONTROL_NOT_FOUND', `No webhook event has the id ${quoteExcerpt(id)}.`);
  return event;
}

export function redeliver(deps: OperationDeps, id: string): Promise<WebhookEvent> {
  return deps.core.webhooks.redeliver(get(deps, id));
}

/** The clock of a webhook event's account; the main clock once that account is gone (as its redelivery uses). */
export function settlesEvent(deps: OperationDeps, id: string): Clock {
  return deps.core.store.accounts.get(get(deps, id).account)?.clock ?? deps.core.clocks.main;
}

/** Answers once the tries it waits for have ended (its `settles` names which). */
export function settled(): { status: 'settled' } {
  return { status: 'settled' };
}

/** The clock of the account a wait is limited to; none (every clock) when no account is named. */
export function settlesScope({ core }: OperationDeps, { account }: AccountScope): Clock | undefined {
  return account === undefined ? undefined : findAccount(core, account).clock;
}

export function chaos({ core }: OperationDeps): ChaosView {
  return chaosView(core.webhooks.chaosSettings());
}

export function setChaos({ core }: OperationDeps, { delay, ...rates }: WebhookChaosInput): ChaosView {
  return chaosView(
    core.webhooks.configureChaos(delay === undefined ? rates : { ...rates, delayMs: parseDuration(delay) ?? 0 }),
  );
}
