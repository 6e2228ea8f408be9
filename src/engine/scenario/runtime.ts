/** The active scenario: decides outcomes, schedules replies and timeline events, runs opt-outs and faults. */

import { ApiError } from '../../domain/errors.js';
import type { Environment, MessageRecord } from '../../domain/message.js';
import { parseDuration } from '../../domain/time.js';
import type { Clock } from '../../state/clock.js';
import type { Timer } from '../../state/timerQueue.js';
import type { Account, AccountScenarioData } from '../../state/store.js';
import { type Accounts, chargeAtMost, credit, setBalance } from '../accounts.js';
import type { Core } from '../core.js';
import type { Timeline } from '../outcomes.js';
import { receiveReply } from '../replies.js';
import { defaultScenario } from './defaultScenario.js';
import type { RouteOperation as Operation } from '../../domain/apiOperations.js';
import { type FaultAction, Faults, mergeFaultActions } from './faults.js';
import { WebhookBehaviours } from './webhookBehaviours.js';
import { type MatchSubject, type Matcher, compileMatch, compileOutcome } from './match.js';
import { emptyScenario, validateScenario } from './parse.js';
import type {
  AccountScenario,
  ReplyTextKind,
  Scenario,
  ScenarioFault,
  ScenarioReply,
  ScenarioRule,
  TimelineEventSpec,
  WebhookBehaviourSpec,
} from './schema.js';

interface CompiledRule {
  matches: Matcher;
  draw: () => Timeline;
}

interface CompiledReply {
  matches: Matcher;
  afterMs: number;
  text: () => string;
}

/** Rules, replies and faults compiled once: the emulator's scenario, the magic numbers, or one account's own. */
interface Compiled {
  rules: CompiledRule[];
  replies: CompiledReply[];
  faults: Faults;
  webhooks: WebhookBehaviours;
  /** An account's own scenario that says `magicNumbers: false`: the built-in magic numbers are not asked for it. */
  magicNumbers: boolean;
}

/** An account's compiled scenario and the data it was compiled from (a new record or new data compiles afresh). */
interface CompiledOverride {
  source: AccountScenarioData;
  compiled: Compiled;
}

/** Generates reply text; faker is loaded only when a scenario asks for generated text. */
export type TextGenerator = (kind: ReplyTextKind) => string;

export interface ScenarioSettings {
  optOutKeywords: readonly string[];
  optInKeywords: readonly string[];
}

export class ScenarioRuntime {
  private active: Scenario = emptyScenario();
  private global: Compiled;
  /** The built-in magic numbers, asked after the active scenario unless it says `magicNumbers: false`. */
  private readonly magic: Compiled;
  /** The compiled scenarios asked for every account, in order: the active one, then the magic numbers when on. */
  private shared: Compiled[] = [];
  /** Keyed by the account record: a deleted or reset account's record (and its compiled scenario) is simply dropped. */
  private readonly overrides = new WeakMap<Account, CompiledOverride>();
  /** The armed timeline events, each with the clock it waits on (its account's, else the main clock). */
  private timers: { clock: Clock; timer: Timer }[] = [];
  /** Timeline events a bundled scenario gave one account, on its clock; they end when its own scenario changes. */
  private readonly accountTimers = new WeakMap<Account, { clock: Clock; timer: Timer }[]>();
  private readonly random: Core['random'];
  private readonly optOut: Set<string>;
  private readonly optIn: Set<string>;

  /**
   * `startup` is the scenario at start-up: every reset activates it again, so a scenario set at
   * runtime lasts until the next reset.
   */
  constructor(
    private readonly core: Core,
    settings: ScenarioSettings,
    private readonly generateText: () => TextGenerator,
    startup: Scenario,
  ) {
    this.random = core.random;
    this.global = this.compile({ rules: [], replies: [], faults: [], webhooks: [] });
    this.magic = this.compile(validateScenario(defaultScenario, 'built-in scenario'));
    this.optOut = new Set(settings.optOutKeywords.map(normaliseKeyword));
    this.optIn = new Set(settings.optInKeywords.map(normaliseKeyword));
    // The account's own delivery behaviours, then the emulator's: each rule that matches applies.
    core.webhooks.useBehaviours((subject) => {
      const account = core.store.accounts.get(subject.message.apiKey);
      const own = account === undefined ? undefined : this.overrideOf(account);
      const shared = this.global.webhooks;
      if ((own === undefined || own.webhooks.empty) && shared.empty) return [];
      return [...(own?.webhooks.decide(subject) ?? []), ...shared.decide(subject)];
    });
    core.outcomes.use('scenario', (message, account) => {
      const own = this.overrideOf(account);
      if (own === undefined && this.shared.length === 0) return undefined;
      return (recipient) => this.decide({ message, recipient, environment: message.environment }, own);
    });
    core.events.on('leg.status', ({ message, leg, status }) => {
      if (status === 'delivered' && message.type === 'sms') this.maybeReply(message, leg.recipient);
    });
    core.events.on('reply.received', ({ reply }) => this.handleKeywords(reply));
    checkTimelineTargets(startup, [core.options.apiKey]);
    checkWebhookUrls(startup, core.accounts);
    checkClocks(startup, [], () => undefined);
    core.startState.register({ start: () => this.activate(startup) });
  }

  scenario(): Scenario {
    return this.active;
  }

  /**
   * Activates a newly loaded scenario; refuses (SCENARIO_INVALID, nothing changed) one whose timeline
   * names an account that is not the default one, not its own and does not exist now, or a fault it does not have.
   */
  load(scenario: Scenario): void {
    checkWebhookUrls(scenario, this.core.accounts);
    checkTimelineTargets(scenario, [this.core.options.apiKey, ...this.core.store.accounts.keys()]);
    checkClocks(
      scenario,
      this.core.clocks.list().map((clock) => clock.id as string),
      (apiKey) => this.core.store.accounts.get(apiKey)?.clock.id,
    );
    this.activate(scenario);
  }

  /** Makes `scenario` the active one: accounts applied, rules compiled, faults and timeline armed from now. */
  activate(scenario: Scenario): void {
    const compiled = this.compile(scenario);
    for (const { clock, timer } of this.timers) clock.cancel(timer);
    this.active = scenario;
    this.global = compiled;
    this.shared = (scenario.magicNumbers === false ? [compiled] : [compiled, this.magic]).filter(
      (entry) => entry.rules.length > 0 || entry.replies.length > 0,
    );
    this.applyClocks(scenario);
    this.applyAccounts(scenario);
    // An event for an account runs at `at` on that account's clock, from its now; any other on the main clock.
    this.timers = scenario.timeline.map((event) => {
      const { action, target } = timelineAction(event);
      const clock =
        (target && this.core.store.accounts.get(target.account ?? this.core.options.apiKey)?.clock) || this.core.clock;
      const timer = clock.at(
        clock.now() + (parseDuration(event.at) ?? 0),
        () => this.runEvent(event, clock),
        `scenario timeline event at ${event.at} (${action})`,
      );
      return { clock, timer };
    });
  }

  /**
   * What the faults do to one API request: the account's own faults first, then the emulator's; latencies
   * add up and the first error or network failure wins, as among the faults of one scenario.
   */
  applyFaults(
    operation: Operation,
    environment: Environment,
    account: Account,
    now: number,
    recipients?: readonly string[],
  ): FaultAction | undefined {
    const own = this.overrideOf(account)?.faults.apply(operation, environment, account.apiKey, now, recipients);
    const shared = this.global.faults.apply(operation, environment, account.apiKey, now, recipients);
    return own === undefined ? shared : shared === undefined ? own : mergeFaultActions(own, shared);
  }

  /** Whether a fault the account's requests meet matches by recipient: then a send's body is read before they are asked. */
  faultsReadRecipients(account: Account): boolean {
    return this.global.faults.readsRecipients || this.overrideOf(account)?.faults.readsRecipients === true;
  }

  /** The account's own scenario, compiled when it was set (or first asked for after an import or reset). */
  private overrideOf(account: Account): Compiled | undefined {
    const source = account.scenario;
    if (source === undefined) return undefined;
    const cached = this.overrides.get(account);
    if (cached?.source === source) return cached.compiled;
    const compiled = this.compile(source as AccountScenario);
    this.overrides.set(account, { source, compiled });
    return compiled;
  }

  private compile(scenario: {
    magicNumbers?: boolean | undefined;
    rules: readonly ScenarioRule[];
    replies: readonly ScenarioReply[];
    faults: readonly ScenarioFault[];
    webhooks: readonly WebhookBehaviourSpec[];
  }): Compiled {
    const faults = new Faults(this.random.faults);
    faults.load(scenario.faults);
    const webhooks = new WebhookBehaviours(this.random.webhooks);
    webhooks.load(scenario.webhooks);
    return {
      webhooks,
      magicNumbers: scenario.magicNumbers !== false,
      rules: scenario.rules.map((rule) => ({
        matches: compileMatch(rule.match),
        draw: compileOutcome(rule.outcome, this.random.outcomes),
      })),
      replies: scenario.replies.map((reply) => this.compileReply(reply)),
      faults,
    };
  }

  /** The first matching rule of the account's own scenario, then of the shared ones; undefined lets the default timeline answer. */
  private decide(subject: MatchSubject, own: Compiled | undefined): Timeline | undefined {
    const rule = (own && firstMatch(own.rules, subject)) ?? this.firstShared('rules', subject, own);
    return rule?.draw();
  }

  private firstShared<K extends 'rules' | 'replies'>(
    list: K,
    subject: MatchSubject,
    own: Compiled | undefined,
  ): Compiled[K][number] | undefined {
    for (const compiled of this.shared) {
      if (compiled === this.magic && own?.magicNumbers === false) continue;
      const found = firstMatch<Compiled[K][number]>(compiled[list], subject);
      if (found) return found;
    }
    return undefined;
  }

  private compileReply(reply: ScenarioReply): CompiledReply {
    const { text, generate } = reply;
    let produce: () => string;
    if (typeof text === 'string') produce = () => text;
    else if (Array.isArray(text)) produce = () => text[Math.floor(this.random.replies.next() * text.length)] as string;
    else {
      const kind = generate ?? 'sentence';
      produce = () => this.generateText()(kind);
    }
    return { matches: compileMatch(reply.match), afterMs: parseDuration(reply.after) ?? 0, text: produce };
  }

  private maybeReply(message: MessageRecord, recipient: string): void {
    const { store, events, random } = this.core;
    const account = store.accounts.get(message.apiKey);
    const own = account && this.overrideOf(account);
    if (own === undefined && this.shared.length === 0) return;
    const subject = { message, recipient, environment: message.environment };
    const reply = (own && firstMatch(own.replies, subject)) ?? this.firstShared('replies', subject, own);
    if (!reply) return;
    // The reply comes after its delay on the clock of the message's account (the main clock's if it was deleted meanwhile).
    const clock = account?.clock ?? this.core.clock;
    clock.at(clock.now() + reply.afterMs, () => {
      if (store.message(message.environment, message.id))
        receiveReply({ clock, store, events, ids: random.ids }, message, recipient, reply.text());
    });
  }

  /** STOP opts a number out for the account (in that environment); START opts it back in. */
  private handleKeywords(reply: MessageRecord): void {
    const keyword = normaliseKeyword(reply.text);
    const account = this.core.store.accounts.get(reply.apiKey);
    const from = reply.recipients[0];
    if (!account || from === undefined) return;
    if (this.optOut.has(keyword)) this.core.accounts.setOptOut(account, reply.environment, from, true);
    else if (this.optIn.has(keyword)) this.core.accounts.setOptOut(account, reply.environment, from, false);
  }

  /** Makes the scenario's test clocks that do not exist yet (a clock that exists keeps its time). */
  private applyClocks(scenario: Scenario): void {
    const { clocks } = this.core;
    for (const { id, name, startTime } of scenario.clocks) {
      if (!clocks.has(id))
        clocks.create({
          id,
          name: name ?? null,
          startTime: startTime === undefined ? undefined : Date.parse(startTime),
        });
    }
  }

  private applyAccounts(scenario: Scenario): void {
    for (const entry of scenario.accounts) this.core.accounts.upsert(entry);
  }

  /**
   * Arms the timeline events a bundled scenario given to `account` carries, written for the default account: each runs
   * for `account` at `at` on its clock from now, and its faults are the account's own. They stop when the account's own
   * scenario is replaced or cleared, or the account is reset or deleted.
   */
  armAccountTimeline(account: Account, events: readonly TimelineEventSpec[]): void {
    this.cancelAccountTimeline(account);
    const source = account.scenario;
    const { clock } = account;
    const timers = events.map((event) => {
      const { action } = timelineAction(event);
      const forAccount = retarget(event, account.apiKey);
      const timer = clock.at(
        clock.now() + (parseDuration(event.at) ?? 0),
        () => {
          if (this.core.store.accounts.get(account.apiKey) !== account || account.scenario !== source) return;
          this.runEvent(forAccount, clock, this.overrideOf(account)?.faults);
        },
        `scenario timeline event of ${account.apiKey} at ${event.at} (${action})`,
      );
      return { clock, timer };
    });
    this.accountTimers.set(account, timers);
  }

  /** Cancels the timeline events armed for an account's own scenario (none: nothing to do). */
  cancelAccountTimeline(account: Account): void {
    for (const { clock, timer } of this.accountTimers.get(account) ?? []) clock.cancel(timer);
    this.accountTimers.delete(account);
  }

  /** Carries out one timeline event; one whose account was deleted meanwhile is skipped and reported. */
  private runEvent(event: TimelineEventSpec, clock: Clock, faults = this.global.faults): void {
    const { action, target } = timelineAction(event);
    let wallet: Account['environments'][Environment] | undefined;
    let account: Account | undefined;
    if (target) {
      const key = target.account ?? this.core.options.apiKey;
      account = this.core.store.accounts.get(key);
      if (!account) {
        return clock.skipped(
          clock.now(),
          `scenario timeline event at ${event.at} (${action})`,
          `no account has the API key "${key}" (deleted?)`,
        );
      }
      wallet = account.environments[target.environment];
    }
    if (event.setBalance && wallet) setBalance(wallet, event.setBalance.balance, event.setBalance.environment);
    if (event.addBalance && wallet) {
      // Taking more than the balance leaves it at zero, as a charge would.
      const { credits } = event.addBalance;
      if (credits >= 0) credit(wallet, credits);
      else chargeAtMost(wallet, -credits);
    }
    if (event.webhookUrl && wallet) wallet.webhookUrl = event.webhookUrl.url;
    if (event.startFault) faults?.toggle(event.startFault, true);
    if (event.stopFault) faults?.toggle(event.stopFault, false);
    if (event.reply && wallet && account) {
      const { from, text } = event.reply;
      const latest = wallet.messages.findLast((message) => message.recipients.includes(from));
      if (!latest) return;
      const { store, events, random } = this.core;
      receiveReply({ clock: account.clock, store, events, ids: random.ids }, latest, from, text);
    }
  }
}

/** Refuses (WEBHOOK_URL_IS_EMULATOR, nothing changed) a scenario that sets a webhook URL naming the emulator itself. */
function checkWebhookUrls(scenario: Scenario, accounts: Accounts): void {
  for (const entry of scenario.accounts) accounts.checkSpec(entry);
  for (const event of scenario.timeline) accounts.checkUrl(event.webhookUrl?.url, 'timeline webhook URL');
}

/**
 * Refuses (SCENARIO_INVALID) a scenario whose timeline names an account that is neither its own nor in
 * `known`, or starts or stops a fault no fault of it is named (that event would silently do nothing).
 */
function checkTimelineTargets(scenario: Scenario, known: Iterable<string>): void {
  const keys = new Set([...known, ...scenario.accounts.map((account) => account.apiKey)]);
  const faults = new Set(scenario.faults.map((fault) => fault.name));
  scenario.timeline.forEach((event, index) => {
    const { action, target } = timelineAction(event);
    const fault = event.startFault ?? event.stopFault;
    if (fault !== undefined && !faults.has(fault)) {
      throw new ApiError(
        'SCENARIO_INVALID',
        `scenario: timeline[${index}].${action}: no fault is named "${fault}"; give one under faults that name.`,
      );
    }
    if (target?.account !== undefined && !keys.has(target.account)) {
      throw new ApiError(
        'SCENARIO_INVALID',
        `scenario: timeline[${index}].${action}.account: no account has the API key "${target.account}"; add it under accounts or create it first.`,
      );
    }
  });
}

/** The one action of a timeline event (besides `at`) and the account it targets, if any. */
function timelineAction(event: TimelineEventSpec): {
  action: string;
  target?: { account?: string; environment: Environment };
} {
  const action = Object.keys(event).find((key) => key !== 'at') ?? 'nothing';
  const value = event[action as keyof TimelineEventSpec];
  const target = value !== null && typeof value === 'object' && 'environment' in value ? value : undefined;
  return target ? { action, target } : { action };
}

/** The event with its account target (the default account when it names none) turned to `apiKey`. */
function retarget(event: TimelineEventSpec, apiKey: string): TimelineEventSpec {
  const { action, target } = timelineAction(event);
  if (!target) return event;
  return { ...event, [action]: { ...(event[action as keyof TimelineEventSpec] as object), account: apiKey } };
}

/** A loop, not find(): this runs at every leg and delivery, and a closure each time was garbage in a clock jump. */
function firstMatch<T extends { matches: Matcher }>(entries: readonly T[], subject: MatchSubject): T | undefined {
  for (const entry of entries) if (entry.matches(subject)) return entry;
  return undefined;
}

function normaliseKeyword(text: string): string {
  return text.trim().toUpperCase();
}

/**
 * Refuses (SCENARIO_INVALID) a scenario whose account names a clock that is neither its own nor in `known`, or would
 * move an existing account (`clockOf` its key) to another clock: its messages' timers are queued on the one it has.
 */
function checkClocks(
  scenario: Scenario,
  known: readonly string[],
  clockOf: (apiKey: string) => string | null | undefined,
): void {
  const ids = new Set([...known, ...scenario.clocks.map((clock) => clock.id)]);
  scenario.accounts.forEach((account, index) => {
    if (account.clock !== undefined && !ids.has(account.clock)) {
      throw new ApiError(
        'SCENARIO_INVALID',
        `scenario: accounts[${index}].clock: no clock has the id "${account.clock}"; add it under clocks or create it first.`,
      );
    }
    const current = clockOf(account.apiKey);
    if (current !== undefined && account.clock !== undefined && current !== account.clock) {
      throw new ApiError(
        'SCENARIO_INVALID',
        `scenario: accounts[${index}].clock: account "${account.apiKey}" lives on ${current === null ? 'the main clock' : `clock "${current}"`}; an account cannot move to another clock.`,
      );
    }
  });
}
