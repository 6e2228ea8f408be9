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

  addAccount(settings: AccountSettings): Account {
    const wallet = (saved: WalletSettings): EnvironmentAccount => ({
      balance: saved.balance,
      webhookUrl: saved.webhookUrl,
      optOuts: new Set(saved.optOuts),
      messages: [],
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
    for (const message of account.environments[environment].messages) byId.delete(message.id);
    account.environments[environment].messages = [];
    this.replies[environment] = this.replies[environment].filter((reply) => reply.apiKey !== account.apiKey);
  }

  addMessage(account: Account, message: MessageRecord): void {
    this.messagesById[message.environment].set(message.id, message);
    account.environments[message.environment].messages.push(message);
  }

  /** A message of any account, by id. */
  message(environment: Environment, id: string): MessageRecord | undefined {
    return this.messagesById[environment].get(id);
  }

  removeMessage(account: Account, message: MessageRecord): void {
    this.messagesById[message.environment].delete(message.id);
    const list = account.environments[message.environment].messages;
    const index = list.lastIndexOf(message);
    if (index >= 0) list.splice(index, 1);
  }

  allMessages(environment: Environment): IterableIterator<MessageRecord> {
    return this.messagesById[environment].values();
  }

  clear(): void {
    this.accounts.clear();
    for (const environment of environments) {
      this.messagesById[environment].clear();
      this.replies[environment] = [];
    }
  }
}
