/** In-memory accounts and messages, kept apart per environment (live and sandbox). */

import { type Environment, type MessageRecord, environments } from '../domain/message.js';

/** Operations an API key may be limited to; a key without one gets FORBIDDEN. */
export const scopes = ['balance', 'send', 'read', 'edit', 'delete'] as const;
export type Scope = (typeof scopes)[number];

export interface EnvironmentAccount {
  balance: number;
  webhookUrl: string | null;
  /** Numbers that replied with an opt-out keyword: later legs to them end blist. */
  optOuts: Set<string>;
  /** This account's messages in this environment, oldest first. */
  messages: MessageRecord[];
  /** Its messages deleted through the API: gone for the API, still shown by the control API. */
  deleted: MessageRecord[];
}

export interface Account {
  apiKey: string;
  signingSecret: string;
  scopes: readonly Scope[];
  environments: Record<Environment, EnvironmentAccount>;
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
  scopes: Scope[];
  live: WalletSettings;
  sandbox: WalletSettings;
}

export class Store {
  readonly accounts = new Map<string, Account>();
  private readonly messagesById: Record<Environment, Map<string, MessageRecord>> = { live: new Map(), sandbox: new Map() };
  /** Inbound replies, per environment, kept for inspection; they are never listed by the API. */
  readonly replies: Record<Environment, MessageRecord[]> = { live: [], sandbox: [] };
  private readonly repliesById: Record<Environment, Map<string, MessageRecord>> = { live: new Map(), sandbox: new Map() };

  addAccount(settings: AccountSettings): Account {
    const wallet = (saved: WalletSettings): EnvironmentAccount => ({
      balance: saved.balance,
      webhookUrl: saved.webhookUrl,
      optOuts: new Set(saved.optOuts),
      messages: [],
      deleted: [],
    });
    const account: Account = {
      apiKey: settings.apiKey,
      signingSecret: settings.signingSecret,
      scopes: [...settings.scopes],
      environments: { live: wallet(settings.live), sandbox: wallet(settings.sandbox) },
    };
    this.accounts.set(account.apiKey, account);
    return account;
  }

  removeAccount(apiKey: string): void {
    const account = this.accounts.get(apiKey);
    if (!account) return;
    for (const environment of environments) this.forgetMessagesOf(account, environment);
    this.accounts.delete(apiKey);
  }

  /** Empties an account's messages and replies in one environment. */
  private forgetMessagesOf(account: Account, environment: Environment): void {
    const byId = this.messagesById[environment];
    const wallet = account.environments[environment];
    for (const message of wallet.messages) byId.delete(message.id);
    for (const message of wallet.deleted) byId.delete(message.id);
    wallet.messages = [];
    wallet.deleted = [];
    this.replies[environment] = this.replies[environment].filter((reply) => {
      if (reply.apiKey === account.apiKey) this.repliesById[environment].delete(reply.id);
      return reply.apiKey !== account.apiKey;
    });
  }

  addMessage(account: Account, message: MessageRecord): void {
    this.messagesById[message.environment].set(message.id, message);
    const wallet = account.environments[message.environment];
    (message.deletedAt === undefined ? wallet.messages : wallet.deleted).push(message);
  }

  addReply(reply: MessageRecord): void {
    this.replies[reply.environment].push(reply);
    this.repliesById[reply.environment].set(reply.id, reply);
  }

  /** A reply of any account, by id. */
  reply(environment: Environment, id: string): MessageRecord | undefined {
    return this.repliesById[environment].get(id);
  }

  /** A message of any account, by id. */
  message(environment: Environment, id: string): MessageRecord | undefined {
    return this.messagesById[environment].get(id);
  }

  /** A message deleted through the API: out of the account's list, kept (with the time) for the control API. */
  markDeleted(account: Account, message: MessageRecord, at: number): void {
    const wallet = account.environments[message.environment];
    const index = wallet.messages.lastIndexOf(message);
    if (index >= 0) wallet.messages.splice(index, 1);
    message.deletedAt = at;
    wallet.deleted.push(message);
  }

  allMessages(environment: Environment): IterableIterator<MessageRecord> {
    return this.messagesById[environment].values();
  }

  clear(): void {
    this.accounts.clear();
    for (const environment of environments) {
      this.messagesById[environment].clear();
      this.repliesById[environment].clear();
      this.replies[environment] = [];
    }
  }
}
