/** The active scenario: decides outcomes, schedules replies and timeline events, runs opt-outs and faults. */

import { ApiError } from '../../domain/errors.js';
import type { Environment, MessageRecord } from '../../domain/message.js';
import { parseDuration } from '../../domain/time.js';
import type { Clock } from '../../state/clock.js';
import type { Timer } from '../../state/timerQueue.js';
import type { Account } from '../../state/store.js';
import { chargeAtMost, credit, setBalance } from '../accounts.js';
import type { Core } from '../core.js';
import type { Timeline } from '../outcomes.js';
import { receiveReply } from '../replies.js';
import { Faults } from './faults.js';
import { type Matcher, compileMatch, compileOutcome } from './match.js';
import type { Scenario, ScenarioReply, TimelineEventSpec } from './schema.js';

interface CompiledRule {
  matches: Matcher;
  draw: () => Timeline;
}

interface CompiledReply {
  matches: Matcher;
  afterMs: number;
  text: () => string;
}

/** Generates reply text; faker is loaded only when a scenario asks for generated text. */
export type TextGenerator = (kind: 'sentence' | 'words' | 'yes-no') => string;

export interface ScenarioSettings {
  optOutKeywords: readonly string[];
  optInKeywords: readonly string[];
}

export class ScenarioRuntime {
  readonly faults: Faults;
  private active: Scenario = { version: 1, accounts: [], clocks: [], rules: [], replies: [], faults: [], timeline: [] };
  private rules: CompiledRule[] = [];
  private replies: CompiledReply[] = [];
  /** The armed timeline events, each with the clock it waits on (its account's, else the main clock). */
  private timers: { clock: Clock; timer: Timer }[] = [];
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
    this.faults = new Faults(core.random.faults);
    this.optOut = new Set(settings.optOutKeywords.map(normaliseKeyword));
    this.optIn = new Set(settings.optInKeywords.map(normaliseKeyword));
    core.outcomes.use('scenario', (message) => (this.rules.length === 0 ? undefined : (recipient) => this.decide(message, recipient)));
    core.events.on('leg.status', ({ message, leg, status }) => {
      if (status === 'delivered' && message.type === 'sms') this.maybeReply(message, leg.recipient);
    });
    core.events.on('reply.received', ({ reply }) => this.handleKeywords(reply));
    checkTimelineTargets(startup, [core.options.apiKey]);
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
    const rules = scenario.rules.map((rule) => ({ matches: compileMatch(rule.match), draw: compileOutcome(rule.outcome, this.random.outcomes) }));
    const replies = scenario.replies.map((reply) => this.compileReply(reply));
    for (const { clock, timer } of this.timers) clock.cancel(timer);
    this.active = scenario;
    this.rules = rules;
    this.replies = replies;
    this.faults.load(scenario.faults);
    this.applyClocks(scenario);
    this.applyAccounts(scenario);
    // An event for an account runs at `at` on that account's clock, from its now; any other on the main clock.
    this.timers = scenario.timeline.map((event) => {
      const { action, target } = timelineAction(event);
      const clock = (target && this.core.store.accounts.get(target.account ?? this.core.options.apiKey)?.clock) || this.core.clock;
      const timer = clock.at(
        clock.now() + (parseDuration(event.at) ?? 0),
        () => this.runEvent(event, clock),
        `scenario timeline event at ${event.at} (${action})`,
      );
      return { clock, timer };
    });
  }

  private decide(message: MessageRecord, recipient: string): Timeline | undefined {
    const subject = { message, recipient, environment: message.environment };
    return this.rules.find((rule) => rule.matches(subject))?.draw();
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
    if (this.replies.length === 0) return;
    const subject = { message, recipient, environment: message.environment };
    // A loop, not find(): this runs at every delivery, and a closure each time was garbage in a clock jump.
    let reply: CompiledReply | undefined;
    for (const entry of this.replies) {
      if (entry.matches(subject)) {
        reply = entry;
        break;
      }
    }
    if (!reply) return;
    const { store, events, random } = this.core;
    // The reply comes after its delay on the clock of the message's account (the main clock's if it was deleted meanwhile).
    const clock = store.accounts.get(message.apiKey)?.clock ?? this.core.clock;
    clock.at(clock.now() + reply.afterMs, () => {
      if (store.message(message.environment, message.id)) receiveReply({ clock, store, events, ids: random.ids }, message, recipient, reply.text());
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
      if (!clocks.has(id)) clocks.create({ id, name: name ?? null, startTime: startTime === undefined ? undefined : Date.parse(startTime) });
    }
  }

  private applyAccounts(scenario: Scenario): void {
    for (const entry of scenario.accounts) this.core.accounts.upsert(entry);
  }

  /** Carries out one timeline event; one whose account was deleted meanwhile is skipped and reported. */
  private runEvent(event: TimelineEventSpec, clock: Clock): void {
    const { action, target } = timelineAction(event);
    let wallet: Account['environments'][Environment] | undefined;
    let account: Account | undefined;
    if (target) {
      const key = target.account ?? this.core.options.apiKey;
      account = this.core.store.accounts.get(key);
      if (!account) {
        return clock.skipped(clock.now(), `scenario timeline event at ${event.at} (${action})`, `no account has the API key "${key}" (deleted?)`);
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
    if (event.startFault) this.faults.toggle(event.startFault, true);
    if (event.stopFault) this.faults.toggle(event.stopFault, false);
    if (event.reply && wallet && account) {
      const { from, text } = event.reply;
      const latest = wallet.messages.findLast((message) => message.recipients.includes(from));
      if (!latest) return;
      const { store, events, random } = this.core;
      receiveReply({ clock: account.clock, store, events, ids: random.ids }, latest, from, text);
    }
  }
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
      throw new ApiError('SCENARIO_INVALID', `scenario: timeline[${index}].${action}: no fault is named "${fault}"; give one under faults that name.`);
    }
    if (target?.account !== undefined && !keys.has(target.account)) {
      throw new ApiError(
        'SCENARIO_INVALID',
        `scenario: timeline[${index}].${action}.account: no account has the API key "${target.account}"; add it under accounts or create it first.`,
      );
    }
  });
}

/**
 * Refuses (SCENARIO_INVALID) a scenario whose account names a clock that is neither its own nor in `known`, or would
 * move an existing account (`clockOf` its key) to another clock: its messages' timers are queued on the one it has.
 */
function checkClocks(scenario: Scenario, known: readonly string[], clockOf: (apiKey: string) => string | null | undefined): void {
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

/** The one action of a timeline event (besides `at`) and the account it targets, if any. */
function timelineAction(event: TimelineEventSpec): { action: string; target?: { account?: string; environment: Environment } } {
  const action = Object.keys(event).find((key) => key !== 'at') ?? 'nothing';
  const value = event[action as keyof TimelineEventSpec];
  const target = value !== null && typeof value === 'object' && 'environment' in value ? value : undefined;
  return target ? { action, target } : { action };
}

function normaliseKeyword(text: string): string {
  return text.trim().toUpperCase();
}
