/** The API's operations on messages and balance, free of HTTP: validate, charge, store, start. */

import { ApiError } from '../domain/errors.js';
import { quoteExcerpt } from '../domain/excerpt.js';
import {
  type FieldLimits,
  chargeableText,
  recipientCount,
  scheduleText,
  validateClientReference,
  validateMessageText,
  validateRecipients,
} from '../domain/fields.js';
import {
  type Environment,
  type MessageRecord,
  type MessageStatus,
  environments,
  firstHistory,
  messageStatuses,
  noSteps,
  shownStatus,
} from '../domain/message.js';
import { resolveSchedule } from '../domain/schedule.js';
import { type Pricing, sendCost } from '../domain/segments.js';
import type { RequestFields } from '../domain/signing.js';
import type { EmulatorEmitter } from '../events.js';
import type { Random } from '../state/random.js';
import type { Account, Store } from '../state/store.js';
import { charge, chargeAtMost, covers } from './accounts.js';
import type { Lifecycle } from './lifecycle.js';
import { type IndexedField, ListIndex } from './listIndex.js';
import type { Timeline } from './outcomes.js';

export interface MessagingSettings extends FieldLimits {
  pricing: Pricing;
  chargeRejectedRecipients: boolean;
  checkBalanceOnSchedule: boolean;
  /** The emulator's time zone, in which a refused schedule's description shows its clock and window. */
  offsetMinutes: number;
}

export interface MessageListQuery {
  recipient?: string;
  status?: string;
  search?: string;
  page: number;
  limit: number;
}

export interface ListPage {
  items: MessageRecord[];
  page: number;
  limit: number;
  totalItems: number;
  totalPages: number;
}

/** What the control API's message list filters by (checked by the caller). */
export interface InspectFilter {
  environment?: Environment;
  account?: string;
  status?: string;
  recipient?: string;
  /** The exact `client_reference` a send gave. */
  clientReference?: string;
}

/** How many more messages each list read adds to the text prefilter (a few ms): see ListIndex.advance. */
const indexSlice = 10_000;

/** Control lists show the newest first: sandbox's (stored after live's in every list) before live's. */
const environmentsNewestFirst = [...environments].reverse();

/**
 * Newest first, the messages of `list` at `positions` (every one when undefined) that `matches` accepts:
 * appends those from match number `skip` on to `into` until it holds `limit`, and answers how many match.
 */
function pageOfCandidates(
  list: readonly MessageRecord[],
  positions: readonly number[] | undefined,
  matches: (message: MessageRecord) => boolean,
  skip: number,
  limit: number,
  into: MessageRecord[],
): number {
  let total = 0;
  for (let k = (positions ?? list).length - 1; k >= 0; k--) {
    const message = list[positions ? (positions[k] as number) : k] as MessageRecord;
    if (!matches(message)) continue;
    if (total >= skip && into.length < limit) into.push(message);
    total += 1;
  }
  return total;
}

export const maxPageSize = 100;
export const defaultPageSize = 10;

export class Messaging {
  /** Search and recipient prefilters, one per message list, built on the first query that needs one. */
  private readonly indexes = new WeakMap<readonly MessageRecord[], ListIndex>();

  constructor(
    private readonly store: Store,
    private readonly ids: Random,
    private readonly lifecycle: Lifecycle,
    private readonly events: EmulatorEmitter,
    private readonly settings: MessagingSettings,
  ) {}

  /**
   * Send now (no schedule) or schedule; validation order and charges follow the API. Everything
   * that can fail comes first (the outcome of each leg included); the charge is the last step, so
   * a send that is not accepted costs nothing.
   */
  send(account: Account, environment: Environment, fields: RequestFields, outcomeOverride?: Timeline): MessageRecord {
    const wallet = account.environments[environment];
    const recipients = this.recipientsOrCharge(wallet, fields);
    const text = validateMessageText(fields.message, this.settings);
    const clientReference = validateClientReference(fields.client_reference);
    const schedule = scheduleText(fields.schedule);
    const now = account.clock.now();
    const scheduleAt = schedule === undefined ? null : resolveSchedule(schedule, now, this.settings.offsetMinutes);
    const cost = sendCost(text, recipients.length, this.settings.pricing);
    if ((scheduleAt === null || this.settings.checkBalanceOnSchedule) && !covers(wallet, cost)) {
      throw new ApiError(
        'INSUFFICIENT_BALANCE',
        `This message costs ${cost} credits; the balance is ${wallet.balance}.`,
      );
    }
    const status: MessageStatus = scheduleAt === null ? 'pending' : 'scheduled';
    const created = firstHistory(status, now);
    const message: MessageRecord = {
      id: this.ids.uuid(),
      type: 'sms',
      environment,
      apiKey: account.apiKey,
      recipients,
      text,
      clientReference,
      scheduleAt,
      status,
      credit: scheduleAt === null ? cost : 0,
      createdAt: now,
      deliveredAt: null,
      // One first history for the message and all its legs: histories are never mutated (see appendChange).
      legs: recipients.map((recipient) => ({ recipient, status, history: created, plan: noSteps })),
      history: created,
    };
    if (outcomeOverride) message.outcomeOverride = [...outcomeOverride];
    const timelines = scheduleAt === null ? this.lifecycle.decide(account, message) : undefined;
    this.store.addMessage(account, message);
    this.lifecycle.start(account, message, timelines);
    this.events.emit('message.created', { message });
    if (scheduleAt === null) charge(wallet, cost);
    return message;
  }

  /** Edits a scheduled message; any of recipient, message, schedule, client_reference may change. */
  edit(account: Account, environment: Environment, id: string, fields: RequestFields): MessageRecord {
    const message = this.scheduled(account, environment, id);
    const recipients =
      fields.recipient === undefined ? message.recipients : validateRecipients(fields.recipient, this.settings);
    const text = fields.message === undefined ? message.text : validateMessageText(fields.message, this.settings);
    const clientReference = validateClientReference(fields.client_reference) ?? message.clientReference;
    const schedule = scheduleText(fields.schedule);
    const scheduleAt =
      schedule === undefined
        ? message.scheduleAt
        : resolveSchedule(schedule, account.clock.now(), this.settings.offsetMinutes);
    const wallet = account.environments[environment];
    const cost = sendCost(text, recipients.length, this.settings.pricing);
    if (this.settings.checkBalanceOnSchedule && !covers(wallet, cost)) {
      throw new ApiError(
        'INSUFFICIENT_BALANCE',
        `The edited message would cost ${cost} credits; the balance is ${wallet.balance}.`,
      );
    }
    if (recipients !== message.recipients) {
      const at = account.clock.now();
      message.legs = recipients.map((recipient) => ({
        recipient,
        status: 'scheduled',
        history: [{ status: 'scheduled', at }],
        plan: noSteps,
      }));
    }
    message.recipients = recipients;
    message.text = text;
    // The text prefilters read text and recipients once; an edit in place changes them.
    this.indexes.delete(account.environments[environment].messages);
    this.indexes.delete(this.store.allMessages(environment));
    message.clientReference = clientReference;
    if (scheduleAt !== message.scheduleAt) {
      message.scheduleAt = scheduleAt;
      this.lifecycle.rescheduled(account, message);
    }
    return message;
  }

  /** Deletes a scheduled message; the API no longer finds it (the control API shows it as deleted). */
  remove(account: Account, environment: Environment, id: string): void {
    const message = this.scheduled(account, environment, id);
    this.lifecycle.disarm(account, message);
    this.store.markDeleted(account, message, account.clock.now());
  }

  /** A message of the account, or one of its replies (a reply's `self` link leads here). */
  get(account: Account, environment: Environment, id: string): MessageRecord {
    const message = this.store.message(environment, id) ?? this.store.reply(environment, id);
    if (!message || message.apiKey !== account.apiKey || message.deletedAt !== undefined) {
      throw new ApiError(
        'MESSAGE_NOT_FOUND',
        `No message with id ${quoteExcerpt(id)} exists for this API key in the ${environment} environment.`,
      );
    }
    return message;
  }

  /** One page of the account's messages, newest first, filtered as the list endpoint says. */
  list(account: Account, environment: Environment, query: MessageListQuery): ListPage {
    const matches = this.matcher(query);
    const start = (query.page - 1) * query.limit;
    const visible = account.environments[environment].messages;
    const items: MessageRecord[] = [];
    let totalItems: number;
    if (query.search !== undefined || query.recipient !== undefined) {
      const [field, needle] =
        query.search !== undefined
          ? (['search', query.search.toLowerCase()] as const)
          : (['recipient', query.recipient as string] as const);
      const positions = this.candidates(visible, field, needle);
      // The prefilter's answer is exact for its field: the rest of the query still checks each candidate.
      const rest = positions ? this.matcher({ ...query, [field]: undefined }) : matches;
      totalItems = pageOfCandidates(visible, positions, rest, start, query.limit, items);
    } else {
      this.indexOf(visible).advance(indexSlice);
      if (query.status !== undefined) {
        // A deleted message shows `deleted`, never a listable status, so the table's status column serves the API too.
        totalItems = this.store.select(environment, account, query.status, start, query.limit, items);
      } else {
        totalItems = visible.length;
        for (let k = visible.length - 1 - start; k >= 0 && items.length < query.limit; k--)
          items.push(visible[k] as MessageRecord);
      }
    }
    return { items, page: query.page, limit: query.limit, totalItems, totalPages: Math.ceil(totalItems / query.limit) };
  }

  /**
   * One page of the control API's message list, newest first: sandbox before live, each newest first
   * (the order every control list had). Appends the page to `into` and answers the number of matches.
   */
  inspect(filter: InspectFilter, skip: number, limit: number, into: MessageRecord[]): number {
    let total = 0;
    for (const environment of filter.environment ? [filter.environment] : environmentsNewestFirst) {
      const account = filter.account === undefined ? undefined : this.store.accounts.get(filter.account);
      if (filter.account !== undefined && !account) continue;
      const from = Math.max(0, skip - total);
      const all = this.store.allMessages(environment);
      const { recipient, status, clientReference } = filter;
      if (recipient === undefined && clientReference === undefined) {
        this.indexOf(all).advance(indexSlice);
        total += this.store.select(environment, account, status, from, limit, into);
        continue;
      }
      const byRecipient = recipient === undefined ? undefined : this.candidates(all, 'recipient', recipient);
      // A search by reference within one account looks at that account's messages only, never the whole table.
      const positions =
        byRecipient ??
        (account && clientReference !== undefined ? this.store.positionsOf(account, environment) : undefined);
      const matches = (message: MessageRecord) =>
        (account === undefined || message.apiKey === account.apiKey) &&
        (status === undefined || shownStatus(message) === status) &&
        (clientReference === undefined || message.clientReference === clientReference) &&
        (recipient === undefined ||
          byRecipient !== undefined ||
          message.recipients.some((number) => number.includes(recipient)));
      total += pageOfCandidates(all, positions, matches, from, limit, into);
    }
    return total;
  }

  /** Positions in `list` worth checking for a text filter (oldest first), or undefined: check every message. */
  private candidates(list: readonly MessageRecord[], field: IndexedField, needle: string): number[] | undefined {
    return this.indexOf(list).candidates(field, needle);
  }

  private indexOf(list: readonly MessageRecord[]): ListIndex {
    let index = this.indexes.get(list);
    if (!index) this.indexes.set(list, (index = new ListIndex(list)));
    return index;
  }

  private matcher(query: MessageListQuery): (message: MessageRecord) => boolean {
    const { recipient, status, search } = query;
    if (status !== undefined && !(messageStatuses as readonly string[]).includes(status)) {
      throw new ApiError(
        'INVALID_QUERY_PARAMETER',
        `status must be one of ${messageStatuses.join(', ')}; got ${quoteExcerpt(status)}.`,
      );
    }
    const needle = search?.toLowerCase();
    return (message) =>
      (status === undefined || message.status === status) &&
      (recipient === undefined || message.recipients.some((number) => number.includes(recipient))) &&
      (needle === undefined || message.text.toLowerCase().includes(needle));
  }

  private scheduled(account: Account, environment: Environment, id: string): MessageRecord {
    const message = this.get(account, environment, id);
    if (message.status !== 'scheduled') {
      throw new ApiError(
        'MESSAGE_NOT_SCHEDULED',
        `Message ${quoteExcerpt(id)} is ${message.status}; only a scheduled message can be edited or deleted.`,
      );
    }
    return message;
  }

  /**
   * Validates recipients; a malformed number still costs what the send would have cost within the
   * message limit (never below zero), as the spec says the gateway charges it.
   */
  private recipientsOrCharge(wallet: Account['environments'][Environment], fields: RequestFields): string[] {
    try {
      return validateRecipients(fields.recipient, this.settings);
    } catch (error) {
      if (
        this.settings.chargeRejectedRecipients &&
        error instanceof ApiError &&
        error.code === 'INVALID_RECIPIENT_ENTRY'
      ) {
        chargeAtMost(
          wallet,
          sendCost(
            chargeableText(fields.message, this.settings),
            recipientCount(fields.recipient),
            this.settings.pricing,
          ),
        );
      }
      throw error;
    }
  }
}
