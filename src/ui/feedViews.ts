/** What the inbox's live stream sends: the state a page starts from, and coalesced updates, as control-API views. */

import {
  type Environment,
  type FinalStatus,
  type MessageRecord,
  environments,
  finalStatuses,
} from '../domain/message.js';
import type { ClockView, TestClockView } from '../control/views.js';
import type { Core } from '../engine/core.js';
import { type AccountView, accountView } from '../engine/inspection.js';
import { type MessageView, messageView } from '../domain/messageView.js';
import { type WebhookEvent, shownWebhookEvent } from '../domain/webhookEvent.js';

/** Most messages, replies and webhook events a page starts with; older ones stay reachable through the control API. */
export const feedWindow = 300;

/** The emulator's shared lists, sent with the state so the page keeps no copy of its own. */
export interface FeedLists {
  environments: readonly Environment[];
  /** Outcomes a leg can end in: the page offers them to force, and a leg in none of them is still open. */
  finalStatuses: readonly FinalStatus[];
}

const lists: FeedLists = { environments, finalStatuses };

export interface FeedState {
  lists: FeedLists;
  clock: ClockView;
  /** Every test clock with the accounts on it (there are few), so an account's clock shows its time. */
  clocks: TestClockView[];
  offsetMinutes: number;
  accounts: AccountView[];
  messages: MessageView[];
  replies: MessageView[];
  webhooks: WebhookEvent[];
}

export interface FeedUpdate {
  /** Sent with every update so a page's clock never drifts from the emulator's. */
  clock: ClockView;
  clocks: TestClockView[];
  /** Every account (there are few), so balances, opt-outs and deletions are always current. */
  accounts: AccountView[];
  messages: MessageView[];
  replies: MessageView[];
  webhooks: WebhookEvent[];
}

/** Records changed since the last update, each once. */
export interface Pending {
  messages: Map<string, MessageRecord>;
  replies: Map<string, MessageRecord>;
  webhooks: Map<string, WebhookEvent>;
}

export interface FeedViews {
  state(): FeedState;
  update(pending: Pending): FeedUpdate;
}

function newest<T>(lists: Iterable<T>[], createdAt: (item: T) => number): T[] {
  const all: T[] = [];
  for (const list of lists) for (const item of list) all.push(item);
  return all.sort((a, b) => createdAt(b) - createdAt(a)).slice(0, feedWindow);
}

/** `clock` and `clocks` are the control API's views, so the page shows exactly what GET /_emulator/clock and /clocks answer. */
export function feedViews(core: Core, clock: () => ClockView, clocks: () => TestClockView[]): FeedViews {
  const { store, offsetMinutes } = core;
  const message = (record: MessageRecord): MessageView => messageView(record, offsetMinutes);
  const accounts = (): AccountView[] => [...store.accounts.values()].map(accountView);
  const byCreation = (record: MessageRecord): number => record.createdAt;
  const fromEnvironments = <T>(pick: (environment: Environment) => Iterable<T>): Iterable<T>[] =>
    environments.map(pick);
  return {
    state: () => ({
      lists,
      clock: clock(),
      clocks: clocks(),
      offsetMinutes,
      accounts: accounts(),
      messages: newest(
        fromEnvironments((environment) => store.allMessages(environment)),
        byCreation,
      ).map(message),
      replies: newest(
        fromEnvironments((environment) => store.replies(environment)),
        byCreation,
      ).map(message),
      webhooks: core.webhooks.log.list().slice(-feedWindow).map(shownWebhookEvent),
    }),
    update: (pending) => ({
      clock: clock(),
      clocks: clocks(),
      accounts: accounts(),
      messages: [...pending.messages.values()].map(message),
      replies: [...pending.replies.values()].map(message),
      webhooks: [...pending.webhooks.values()].map(shownWebhookEvent),
    }),
  };
}
