/**
 * One home for accounts and their wallets: the account defaults, the settings a per-account reset
 * returns to, every charge, refund and balance change (a balance never goes below zero), and every
 * opt-out change (each announced, so live views and `emulator.on('account.changed')` see it).
 */

import { ApiError } from '../domain/errors.js';
import { type Environment, environments } from '../domain/message.js';
import {
  type Account,
  type AccountScenarioData,
  type AccountSettings,
  type EnvironmentAccount,
  type Scope,
  type Store,
  type WalletSettings,
  scopes,
} from '../state/store.js';
import { quoteExcerpt } from '../domain/excerpt.js';
import { type OwnAddresses, isOwnUrl, ownAddressReason } from '../domain/ownAddress.js';
import type { Clock } from '../state/clock.js';
import type { Random } from '../state/random.js';
import type { Clocks } from './clocks.js';

/** An account as a user describes it (options, scenario, control API); what it leaves out gets a default. */
export interface AccountSpec {
  apiKey: string;
  signingSecret?: string;
  /** Signs its webhooks; null sends them unsigned; left out, the emulator's webhookSigningSecret (or none). */
  webhookSigningSecret?: string | null;
  /** Live balance, and the sandbox one unless `sandboxBalance` is given. */
  balance?: number;
  sandboxBalance?: number;
  webhookUrl?: string | null;
  sandboxWebhookUrl?: string | null;
  scopes?: readonly Scope[];
  /** Opted-out numbers, live and sandbox unless `sandboxOptOuts` is given. */
  optOuts?: readonly string[];
  sandboxOptOuts?: readonly string[];
  /** Its own scenario (validated), consulted before the emulator's. */
  scenario?: AccountScenarioData;
  /** The id of the test clock the account lives on; none (or null) for the main clock. */
  clock?: string | null;
}

/** A change of one environment's balance: set it, add to it (a negative number takes away), or both (set, then add). */
export interface BalanceChange {
  balance?: number;
  addBalance?: number;
}

/** A change of an account's settings, as the control API takes it. */
export interface AccountChange {
  signingSecret?: string;
  webhookSigningSecret?: string | null;
  scopes?: readonly Scope[];
  live?: BalanceChange & { webhookUrl?: string | null };
  sandbox?: BalanceChange & { webhookUrl?: string | null };
}

/** The complete current settings of an account (what a snapshot stores). */
export function settingsOf(account: Account): AccountSettings {
  const wallet = (environment: Environment): WalletSettings => {
    const state = account.environments[environment];
    return { balance: state.balance, webhookUrl: state.webhookUrl, optOuts: [...state.optOuts] };
  };
  const settings: AccountSettings = {
    apiKey: account.apiKey,
    signingSecret: account.signingSecret,
    webhookSigningSecret: account.webhookSigningSecret,
    scopes: [...account.scopes],
    live: wallet('live'),
    sandbox: wallet('sandbox'),
    clock: account.clock.id,
  };
  if (account.scenario !== undefined) settings.scenario = account.scenario;
  return settings;
}

/** True when the wallet covers `cost`. */
export function covers(wallet: EnvironmentAccount, cost: number): boolean {
  return wallet.balance >= cost;
}

/** Debits `cost` when the wallet covers it; false (and nothing debited) when it does not. */
export function charge(wallet: EnvironmentAccount, cost: number): boolean {
  if (!covers(wallet, cost)) return false;
  wallet.balance -= cost;
  return true;
}

/** Debits up to `cost`, stopping at zero; returns what was debited. */
export function chargeAtMost(wallet: EnvironmentAccount, cost: number): number {
  const taken = Math.min(wallet.balance, Math.max(0, cost));
  wallet.balance -= taken;
  return taken;
}

/** Adds credits (a top-up or a refund). */
export function credit(wallet: EnvironmentAccount, credits: number): void {
  wallet.balance += Math.max(0, credits);
}

/** The balance a change would leave; refused with CONTROL_INVALID_REQUEST when it would go below zero. */
function balanceAfter(wallet: EnvironmentAccount, change: BalanceChange, environment: Environment): number {
  const balance = (change.balance ?? wallet.balance) + (change.addBalance ?? 0);
  if (!(balance >= 0) || !Number.isSafeInteger(balance)) {
    throw new ApiError(
      'CONTROL_INVALID_REQUEST',
      `The ${environment} balance would become ${balance}; a balance cannot go below 0 and stays a whole number.`,
    );
  }
  return balance;
}

/** Sets a balance; refused below zero. */
export function setBalance(wallet: EnvironmentAccount, balance: number, environment: Environment): void {
  wallet.balance = balanceAfter(wallet, { balance }, environment);
}

export class Accounts {
  /** The settings each account returns to on a per-account reset: its start-up ones, else the ones it was created with. */
  private readonly origins = new Map<string, AccountSettings>();

  constructor(
    private readonly store: Store,
    private readonly defaultBalance: number,
    /** The emulator-wide webhookSigningSecret: what an account gets when its spec names none. */
    private readonly defaultWebhookSecret: string | null,
    /** Where a world's own webhook signing secret is drawn from (`drawWebhookSecret`). */
    private readonly secrets: Random,
    private readonly clocks: Clocks,
    /** Announces that an account's settings changed (the `account.changed` event). */
    private readonly announce: (apiKey: string) => void,
    /** Where this emulator can be reached: no webhook URL may name it. */
    private readonly own: OwnAddresses,
  ) {}

  /**
   * Refuses (WEBHOOK_URL_IS_EMULATOR) a webhook URL that is this emulator itself, wherever a URL is set: every caller
   * checks before it changes anything. Delivery checks again (webhooks/ownGuard.ts): a port taken or a name pointed here
   * later.
   */
  checkUrl(url: string | null | undefined, where = 'webhook URL'): void {
    if (url != null && isOwnUrl(url, this.own))
      // The origin only: a URL's user and password are never echoed.
      throw new ApiError(
        'WEBHOOK_URL_IS_EMULATOR',
        `Refused: the ${where}'s address ${ownAddressReason(new URL(url).origin)}.`,
      );
  }

  /** checkUrl for each webhook URL an account spec gives. */
  checkSpec(spec: Pick<AccountSpec, 'webhookUrl' | 'sandboxWebhookUrl'>): void {
    this.checkUrl(spec.webhookUrl);
    this.checkUrl(spec.sandboxWebhookUrl, 'sandbox webhook URL');
  }

  /**
   * Complete settings for `spec`: a sandbox setting left out takes the spec's live one, any other
   * setting left out takes `base`'s (the account's current settings), then the default.
   */
  settings(spec: AccountSpec, base?: AccountSettings): AccountSettings {
    this.checkSpec(spec);
    const wallet = (
      balance?: number,
      webhookUrl?: string | null,
      optOuts?: readonly string[],
      fallback?: WalletSettings,
    ): WalletSettings => ({
      balance: balance ?? fallback?.balance ?? this.defaultBalance,
      webhookUrl: webhookUrl !== undefined ? webhookUrl : (fallback?.webhookUrl ?? null),
      optOuts: [...(optOuts ?? fallback?.optOuts ?? [])],
    });
    const settings: AccountSettings = {
      apiKey: spec.apiKey,
      signingSecret: spec.signingSecret ?? base?.signingSecret ?? `sk_test_${spec.apiKey.slice(3)}`,
      webhookSigningSecret:
        spec.webhookSigningSecret !== undefined
          ? spec.webhookSigningSecret
          : base !== undefined
            ? base.webhookSigningSecret
            : this.defaultWebhookSecret,
      scopes: [...(spec.scopes ?? base?.scopes ?? scopes)],
      live: wallet(spec.balance, spec.webhookUrl, spec.optOuts, base?.live),
      sandbox: wallet(
        spec.sandboxBalance ?? spec.balance,
        spec.sandboxWebhookUrl !== undefined ? spec.sandboxWebhookUrl : spec.webhookUrl,
        spec.sandboxOptOuts ?? spec.optOuts,
        base?.sandbox,
      ),
      clock: spec.clock !== undefined ? spec.clock : (base?.clock ?? null),
    };
    const scenario = spec.scenario ?? base?.scenario;
    if (scenario !== undefined) settings.scenario = scenario;
    return settings;
  }

  /**
   * A webhook signing secret of its own for a world that names none (`whsec_` and 32 hex digits), drawn from the
   * `secrets` stream: the same for a seed, and no other stream's draws shift.
   */
  drawWebhookSecret(): string {
    const words = [this.secrets.word(), this.secrets.word(), this.secrets.word(), this.secrets.word()];
    return `whsec_${words.map((word) => word.toString(16).padStart(8, '0')).join('')}`;
  }

  /** Adds an account with complete settings; a per-account reset returns it to them. */
  add(settings: AccountSettings): Account {
    const clock = this.clocks.resolve(settings.clock);
    this.origins.set(settings.apiKey, settings);
    return this.store.addAccount(settings, clock);
  }

  /** Creates an account from a spec (defaults filled in); an API key in use is CONTROL_CONFLICT. */
  create(spec: AccountSpec): Account {
    if (this.store.accounts.has(spec.apiKey))
      throw new ApiError('CONTROL_CONFLICT', `An account with API key "${spec.apiKey}" already exists.`);
    return this.add(this.settings(spec));
  }

  /** Creates the account, or changes the settings of an existing one in place (its messages stay). */
  upsert(spec: AccountSpec): Account {
    const existing = this.store.accounts.get(spec.apiKey);
    if (!existing) return this.add(this.settings(spec));
    const next = this.settings(spec, settingsOf(existing));
    if (next.clock !== existing.clock.id) {
      // Its messages' timers are queued on the clock it has; an account never moves to another.
      throw new ApiError(
        'CONTROL_CONFLICT',
        `Account "${spec.apiKey}" lives on ${clockName(existing.clock.id)}; it cannot move to ${clockName(next.clock)}.`,
      );
    }
    existing.signingSecret = next.signingSecret;
    existing.webhookSigningSecret = next.webhookSigningSecret;
    existing.scopes = next.scopes;
    if (next.scenario !== undefined) existing.scenario = next.scenario;
    for (const environment of environments) {
      const wallet = existing.environments[environment];
      setBalance(wallet, next[environment].balance, environment);
      wallet.webhookUrl = next[environment].webhookUrl;
      wallet.optOuts = new Set(next[environment].optOuts);
    }
    this.announce(existing.apiKey);
    return existing;
  }

  /** Opts `number` out of (or back into) the account's messages in one environment; true when that changed anything. */
  setOptOut(account: Account, environment: Environment, number: string, optedOut: boolean): boolean {
    const optOuts = account.environments[environment].optOuts;
    if (optOuts.has(number) === optedOut) return false;
    if (optedOut) optOuts.add(number);
    else optOuts.delete(number);
    this.announce(account.apiKey);
    return true;
  }

  /** Applies a control change: every balance is checked before anything changes. */
  update(account: Account, change: AccountChange): void {
    for (const environment of environments)
      this.checkUrl(change[environment]?.webhookUrl, environment === 'live' ? 'webhook URL' : 'sandbox webhook URL');
    const balances = environments.map((environment) =>
      balanceAfter(account.environments[environment], change[environment] ?? {}, environment),
    );
    if (change.signingSecret !== undefined) account.signingSecret = change.signingSecret;
    if (change.webhookSigningSecret !== undefined) account.webhookSigningSecret = change.webhookSigningSecret;
    if (change.scopes !== undefined) account.scopes = [...change.scopes];
    environments.forEach((environment, index) => {
      const wallet = account.environments[environment];
      wallet.balance = balances[index] as number;
      const webhookUrl = change[environment]?.webhookUrl;
      if (webhookUrl !== undefined) wallet.webhookUrl = webhookUrl;
    });
  }

  remove(apiKey: string): void {
    this.origins.delete(apiKey);
    this.store.removeAccount(apiKey);
  }

  /** Puts one account back to its start-up settings (or the ones it was created with), without messages. */
  reset(apiKey: string): Account {
    const origin = this.origins.get(apiKey);
    if (!origin) throw new ApiError('CONTROL_NOT_FOUND', `No account has the API key ${quoteExcerpt(apiKey)}.`);
    const clock = this.store.accounts.get(apiKey)?.clock ?? this.clocks.resolve(origin.clock);
    this.store.removeAccount(apiKey);
    return this.store.addAccount(origin, clock);
  }

  /** The accounts that live on `clock`, in creation order. */
  on(clock: Clock): Account[] {
    return this.store.accountsOn(clock);
  }

  /** Forgets every account (reset and snapshot import start from here). */
  clear(): void {
    this.origins.clear();
    this.store.clear();
  }

  /** Makes every account's current settings the ones its per-account reset returns to (the end of start-up). */
  captureStart(): void {
    for (const account of this.store.accounts.values()) this.origins.set(account.apiKey, settingsOf(account));
  }
}

function clockName(id: string | null): string {
  return id === null ? 'the main clock' : `clock "${id}"`;
}
