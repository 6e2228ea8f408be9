/** In-memory accounts and messages, kept apart per environment (live and sandbox). */

import { type Environment, type MessageRecord, environments } from '../domain/message.js';
import type { Clock } from './clock.js';
import { MessageTable, statusCode } from './messageTable.js';
import { PositionList } from './positionList.js';

/** Operations an API key may be limited to; a key without one gets FORBIDDEN. */
export const scopes = ['balance', 'send', 'read', 'edit', 'delete'] as const;
export type Scope = (typeof scopes)[number];

export interface EnvironmentAccount {
  balance: number;
  webhookUrl: string | null;
  /** Numbers that replied with an opt-out keyword: later legs to them end blist. */
  optOuts: Set<string>;
  /** This account's messages in this environment that the API finds (not deleted), oldest first. */
  messages: MessageRecord[];
  /** Where all its messages (deleted ones included: the control API shows them) are in the environment's table, oldest first. */
  positions: PositionList;
  /** Inbound replies to its messages in this environment, oldest first. */
  replies: MessageRecord[];
}

/** An account's own scenario as plain data: the engine validates it (engine/scenario/schema.ts) and compiles it. */
export type AccountScenarioData = Readonly<Record<string, unknown>>;

export interface Account {
  apiKey: string;
  signingSecret: string;
  /** Signs its webhooks (`Webhook-Signature`); null sends them unsigned. */
  webhookSigningSecret: string | null;
  scopes: readonly Scope[];
  environments: Record<Environment, EnvironmentAccount>;
  /** Rules, replies and faults consulted before the emulator's scenario for this account only. */
  scenario?: AccountScenarioData;
  /** The clock everything about the account runs on (both environments): the main clock or a test clock. Held here so no request looks it up. */
  clock: Clock;
}

/** One environment's settings of an account, as a snapshot stores them. */
export interface WalletSettings {
  balance: number;
  webhookUrl: string | null;
  optOuts: string[];
}

/** Every setting of an account, complete (the defaults live in `engine/accounts.ts`). */
export interface AccountSettings {
  apiKey: string;
  signingSecret: string;
  webhookSigningSecret: string | null;
  scopes: Scope[];
  live: WalletSettings;
  sandbox: WalletSettings;
  scenario?: AccountScenarioData;
  /** The test clock the account lives on, or null for the main clock. */
  clock: string | null;
}

export class Store {
  readonly accounts = new Map<string, Account>();
  private readonly tables: Record<Environment, MessageTable> = {
    live: new MessageTable(),
    sandbox: new MessageTable(),
  };
  /** The accounts of each clock, in the order they were added: a clock's work never looks at another's. */
  private readonly byClock = new Map<Clock, Set<Account>>();
  /** Inbound replies, per environment, kept for inspection; they are never listed by the API. */
  private readonly replyLists: Record<Environment, MessageRecord[]> = { live: [], sandbox: [] };
  private readonly repliesById: Record<Environment, Map<string, MessageRecord>> = {
    live: new Map(),
    sandbox: new Map(),
  };
  /** Replies of removed accounts still in `replyLists`, per environment: dropped when the list is next read. */
  private readonly removedReplies: Record<Environment, number> = { live: 0, sandbox: 0 };

  /** Adds an account on `clock` (the one its settings name, resolved by the caller). */
  addAccount(settings: AccountSettings, clock: Clock): Account {
    const wallet = (saved: WalletSettings): EnvironmentAccount => ({
      balance: saved.balance,
      webhookUrl: saved.webhookUrl,
      optOuts: new Set(saved.optOuts),
      messages: [],
      positions: new PositionList(),
      replies: [],
    });
    const account: Account = {
      apiKey: settings.apiKey,
      signingSecret: settings.signingSecret,
      webhookSigningSecret: settings.webhookSigningSecret,
      scopes: [...settings.scopes],
      environments: { live: wallet(settings.live), sandbox: wallet(settings.sandbox) },
      clock,
    };
    if (settings.scenario !== undefined) account.scenario = settings.scenario;
    this.accounts.set(account.apiKey, account);
    let onClock = this.byClock.get(clock);
    if (onClock === undefined) this.byClock.set(clock, (onClock = new Set()));
    onClock.add(account);
    return account;
  }

  /** Where the account's messages (deleted ones included) stand in the environment's table, oldest first. */
  positionsOf(account: Account, environment: Environment): number[] {
    const { positions } = account.environments[environment];
    return Array.from({ length: positions.length }, (_, k) => positions.at(k));
  }

  /** The accounts that live on `clock`, in the order they were added. */
  accountsOn(clock: Clock): Account[] {
    return [...(this.byClock.get(clock) ?? [])];
  }

  /** Forgets an account with its messages and replies: costs what the account holds, never a pass over the others'. */
  removeAccount(apiKey: string): void {
    const account = this.accounts.get(apiKey);
    if (!account) return;
    for (const environment of environments) this.forgetMessagesOf(account, environment);
    this.accounts.delete(apiKey);
    const onClock = this.byClock.get(account.clock);
    onClock?.delete(account);
    if (onClock?.size === 0) this.byClock.delete(account.clock);
  }

  /** Vacates an account's messages and replies in one environment; the table is rebuilt once vacancies outnumber messages. */
  private forgetMessagesOf(account: Account, environment: Environment): void {
    const wallet = account.environments[environment];
    const table = this.tables[environment];
    for (let k = 0; k < wallet.positions.length; k++) table.vacate(wallet.positions.at(k));
    wallet.positions = new PositionList();
    wallet.messages = [];
    if (table.vacancies > table.records.length - table.vacancies) this.compact(environment);
    for (const reply of wallet.replies) {
      this.repliesById[environment].delete(reply.id);
      this.removedReplies[environment] += 1;
    }
    wallet.replies = [];
  }

  /**
   * Rebuilds the environment's table without its vacant positions, and every account's positions with it: O(all
   * messages), but only after as many removals as messages kept, or before a read of the whole table.
   */
  private compact(environment: Environment): void {
    const old = this.tables[environment];
    if (old.vacancies === 0) return;
    this.tables[environment] = new MessageTable();
    for (const owner of this.accounts.values()) owner.environments[environment].positions = new PositionList();
    old.records.forEach((message, position) => {
      if (!old.isVacant(position)) this.place(this.accounts.get(message.apiKey) as Account, message);
    });
  }

  addMessage(account: Account, message: MessageRecord): void {
    const wallet = account.environments[message.environment];
    if (message.deletedAt === undefined) wallet.messages.push(message);
    this.place(account, message);
  }

  /** Puts the message last in its environment's table and its account's positions. */
  private place(account: Account, message: MessageRecord): void {
    account.environments[message.environment].positions.push(this.tables[message.environment].add(message));
  }

  addReply(reply: MessageRecord): void {
    this.replyLists[reply.environment].push(reply);
    this.repliesById[reply.environment].set(reply.id, reply);
    this.accounts.get(reply.apiKey)?.environments[reply.environment].replies.push(reply);
  }

  /** The environment's replies, oldest first (those of removed accounts are dropped here, on the first read after). */
  replies(environment: Environment): readonly MessageRecord[] {
    if (this.removedReplies[environment] > 0) {
      const byId = this.repliesById[environment];
      this.replyLists[environment] = this.replyLists[environment].filter((reply) => byId.get(reply.id) === reply);
      this.removedReplies[environment] = 0;
    }
    return this.replyLists[environment];
  }

  /** A reply of any account, by id. */
  reply(environment: Environment, id: string): MessageRecord | undefined {
    return this.repliesById[environment].get(id);
  }

  /** A message of any account, by id. */
  message(environment: Environment, id: string): MessageRecord | undefined {
    return this.tables[environment].get(id);
  }

  /** A message's status changed: the status filters see it from now on. */
  statusChanged(message: MessageRecord): void {
    this.tables[message.environment].refresh(message);
  }

  /** A message deleted through the API: out of the account's list, kept (with the time) for the control API. */
  markDeleted(account: Account, message: MessageRecord, at: number): void {
    const wallet = account.environments[message.environment];
    const index = wallet.messages.lastIndexOf(message);
    if (index >= 0) wallet.messages.splice(index, 1);
    message.deletedAt = at;
    this.statusChanged(message);
  }

  /** Every message of the environment, deleted ones included, oldest first. */
  allMessages(environment: Environment): readonly MessageRecord[] {
    this.compact(environment);
    return this.tables[environment].records;
  }

  /**
   * Newest first, the messages of `environment` (only `account`'s when given) whose shown status is
   * `status` (any when undefined): appends those from match number `skip` on to `into` until it holds
   * `limit` items, and answers how many match in all. Reads the status column, not the records.
   */
  select(
    environment: Environment,
    account: Account | undefined,
    status: string | undefined,
    skip: number,
    limit: number,
    into: MessageRecord[],
  ): number {
    // The whole table is read by position below: no vacancy may stand in it (an account's own positions never are).
    if (account === undefined) this.compact(environment);
    const table = this.tables[environment];
    const positions = account?.environments[environment].positions;
    const count = positions ? positions.length : table.records.length;
    if (status === undefined) {
      for (let k = count - 1 - skip; k >= 0 && into.length < limit; k--)
        into.push(table.records[positions ? positions.at(k) : k] as MessageRecord);
      return count;
    }
    const code = statusCode(status);
    let total = 0;
    for (let k = count - 1; k >= 0; k--) {
      const position = positions ? positions.at(k) : k;
      if (table.code(position) !== code) continue;
      if (total >= skip && into.length < limit) into.push(table.records[position] as MessageRecord);
      total += 1;
    }
    return total;
  }

  clear(): void {
    this.accounts.clear();
    this.byClock.clear();
    for (const environment of environments) {
      this.tables[environment] = new MessageTable();
      this.repliesById[environment].clear();
      this.replyLists[environment] = [];
      this.removedReplies[environment] = 0;
    }
  }
}
