/** The webhook log: list and read events, post one again, wait for tries under way, the delivery-behaviour rates, and checking a receiver. */

import { ApiError } from '../../domain/errors.js';
import { quoteExcerpt } from '../../domain/excerpt.js';
import { paginate, type Page } from '../../domain/list.js';
import { parseDuration } from '../../domain/time.js';
import type { Clock } from '../../state/clock.js';
import { type WebhookEvent, shownWebhookEvent } from '../../domain/webhookEvent.js';
import type { AccountScope, ReceiverCheckInput, WebhookChaosInput, WebhookFilterInput } from '../inputs.js';
import { type ReceiverReport, checkReceiver } from '../../webhooks/checkReceiver.js';
import { findAccount } from '../lookups.js';
import type { OperationDeps, Paged } from '../operation.js';
import { type ChaosView, chaosView } from '../views.js';
import type { OperationTable } from '../operation.js';
import { accountScope, receiverCheckInput, webhookChaosInput, webhookFilter } from '../inputs.js';
import { body, id, query } from '../argSpecs.js';

export function listWebhooks(
  { core }: OperationDeps,
  { page, limit, ...filter }: Paged<WebhookFilterInput>,
): Page<WebhookEvent> {
  const found = paginate(core.webhooks.log.list(filter), page, limit);
  return { ...found, items: found.items.map(shownWebhookEvent) };
}

/** The event as the log keeps it (its URL whole, for posting again); answers show it through shownWebhookEvent. */
function loggedWebhook({ core }: OperationDeps, id: string): WebhookEvent {
  const event = core.webhooks.log.get(id);
  if (!event) throw new ApiError('CONTROL_NOT_FOUND', `No webhook event has the id ${quoteExcerpt(id)}.`);
  return event;
}

export function getWebhook(deps: OperationDeps, id: string): WebhookEvent {
  return shownWebhookEvent(loggedWebhook(deps, id));
}

/**
 * Posts an event again. A call that is itself one of the emulator's webhook posts (its `X-Emulator-Event-Id`, relayed
 * back) may only redeliver an event of the account that webhook belongs to: one world never sets off another's
 * (WEBHOOK_OTHER_WORLD); an event id the log does not know belongs to no world it could speak for.
 */
export async function redeliverWebhook(deps: OperationDeps, id: string): Promise<WebhookEvent> {
  const event = loggedWebhook(deps, id);
  if (deps.callerEvent !== undefined && deps.core.webhooks.log.get(deps.callerEvent)?.account !== event.account) {
    throw new ApiError(
      'WEBHOOK_OTHER_WORLD',
      `Refused: this request is the webhook event ${quoteExcerpt(deps.callerEvent)} (X-Emulator-Event-Id), which is not of the account of event ${quoteExcerpt(id)}; a world's webhooks redeliver only its own events.`,
    );
  }
  return shownWebhookEvent(await deps.core.webhooks.redeliver(event));
}

/** The clock of a webhook event's account; the main clock once that account is gone (as its redelivery uses). */
export function settlesWebhook(deps: OperationDeps, id: string): Clock {
  return deps.core.store.accounts.get(loggedWebhook(deps, id).account)?.clock ?? deps.core.clocks.main;
}

/** Answers once the tries it waits for have ended (its `settles` names which). */
export function webhooksSettled(): { status: 'settled' } {
  return { status: 'settled' };
}

/** The clock of the account a wait is limited to; none (every clock) when no account is named. */
export function settlesAccountScope({ core }: OperationDeps, { account }: AccountScope): Clock | undefined {
  return account === undefined ? undefined : findAccount(core, account).clock;
}

export function webhookChaos({ core }: OperationDeps): ChaosView {
  return chaosView(core.webhooks.rates.settings());
}

export function setWebhookChaos({ core }: OperationDeps, { delay, ...rates }: WebhookChaosInput): ChaosView {
  return chaosView(
    core.webhooks.rates.configure(delay === undefined ? rates : { ...rates, delayMs: parseDuration(delay) ?? 0 }),
  );
}

/**
 * check-receiver's battery posted to a receiver, with the emulator's webhook timeout, and the named account's webhook
 * signing secret (else the emulator's), unless the input gives others; answers the report `--json` prints. An option
 * the check refuses (a state template that names no message) is CONTROL_INVALID_REQUEST.
 */
export async function checkWebhookReceiver(
  { core }: OperationDeps,
  { receiver, receiverTimeout, account, ...options }: ReceiverCheckInput,
): Promise<ReceiverReport> {
  const { webhookTimeout } = core.options;
  const secret =
    account === undefined ? core.options.webhookSigningSecret : findAccount(core, account).webhookSigningSecret;
  core.accounts.checkUrl(receiver, 'receiver');
  // The state hook's host is checked with its placeholders filled; its connections are checked again when made.
  if (options.state !== undefined) core.accounts.checkUrl(options.state.replace(/\{\w+\}/g, 'x'), 'state hook');
  try {
    return await checkReceiver(
      receiver,
      {
        timeout: receiverTimeout ?? webhookTimeout,
        ...(secret == null ? {} : { signingSecret: secret }),
        ...options,
      },
      core.own,
    );
  } catch (error) {
    if (error instanceof RangeError)
      throw new ApiError('CONTROL_INVALID_REQUEST', `Invalid receiver check: ${error.message}.`);
    throw error;
  }
}

export const webhooksRows = {
  list: {
    method: 'GET',
    path: '/webhooks',
    answer: 'WebhookEvent',
    args: [query],
    input: webhookFilter,
    inputName: 'webhook filter',
    pages: true,
    summary:
      'The webhook log, oldest first: every event with every try (time, URL, status or error, duration); filters `account`, `environment`, `message`, `state` (`pending`, `delayed`, `delivered`, `failed`, `skipped`).',
    run: listWebhooks,
  },
  get: {
    method: 'GET',
    path: '/webhooks/{id}',
    answer: 'WebhookEvent',
    args: [id],
    summary: 'One webhook event.',
    run: getWebhook,
  },
  redeliver: {
    method: 'POST',
    path: '/webhooks/{id}/redeliver',
    answer: 'WebhookEvent',
    args: [id],
    settles: settlesWebhook,
    summary: "Posts an event again to the account's current URL; answers once its tries end.",
    run: redeliverWebhook,
  },
  settled: {
    method: 'POST',
    path: '/webhooks/settle',
    answer: 'Status',
    args: [body],
    input: accountScope,
    inputName: 'settle scope',
    settles: settlesAccountScope,
    summary:
      'Answers `{"status": "settled"}` once every webhook try under way or due has ended; `{"account": "pk_…"}` waits only for the tries of that account\'s clock (its test clock\'s accounts), so a receiver hanging on another clock does not hold it.',
    run: webhooksSettled,
  },
  chaos: {
    method: 'GET',
    path: '/webhooks/chaos',
    answer: 'Chaos',
    args: [],
    summary:
      'The delivery-behaviour rates in force (an alias for emulator-wide `duplicate`, `late` and `reorder` behaviours with a probability): `{duplicateRate, delayRate, reorderRate, delay}` (delay, the `late` hold, in milliseconds).',
    run: webhookChaos,
  },
  setChaos: {
    method: 'POST',
    path: '/webhooks/chaos',
    answer: 'Chaos',
    args: [body],
    input: webhookChaosInput,
    inputName: 'delivery-behaviour rates',
    summary:
      'Changes the delivery-behaviour rates: `{"duplicateRate": 0.1, "delayRate": 0.2, "reorderRate": 0.05, "delay": "30s"}` (rates 0 to 1; delay a duration or milliseconds); fields left out keep their value.',
    run: setWebhookChaos,
  },
} satisfies OperationTable['webhooks'];

export const receiverCheckRow = {
  method: 'POST',
  path: '/receiver-check',
  answer: 'ReceiverReport',
  args: [body],
  input: receiverCheckInput,
  inputName: 'receiver check',
  summary:
    'Runs check-receiver against a webhook receiver and answers its report (what `check-receiver --json` prints): `{"receiver": "http://127.0.0.1:4000/hooks", "state"?: "http://127.0.0.1:4000/sms/{id}", "receiverTimeout"?, "only"?: […], "skip"?: […], "seed"?, "at"?, "signingSecret"?, "account"?}` (the timeout defaults to the emulator\'s webhook one, the secret to the named account\'s webhook signing secret, else the emulator\'s); answers when the run ends.',
  run: checkWebhookReceiver,
} satisfies OperationTable['receiverCheck'];
