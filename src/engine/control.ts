/** The control operations behind /_emulator and the library handle: clock, accounts, messages, replies, reset, snapshots. */

import type { z } from 'zod';
import { ApiError } from '../domain/errors.js';
import {
  type Environment,
  type Leg,
  type MessageRecord,
  environments,
  isFinal,
  transitionProblem,
} from '../domain/message.js';
import { type RequestFields, canonicalString, signRequest } from '../domain/signing.js';
import { formatInstant, parseDuration } from '../domain/time.js';
import type { Clock, ClockIncident, ClockRun, ClockState } from '../state/clock.js';
import type { Snapshot } from '../state/snapshot.js';
import type { Account } from '../state/store.js';
import type { Page } from '../domain/list.js';
import type {
  ClockMove,
  ForcedStatus,
  InboundReply,
  MessageQuery,
  NewAccount,
  AccountChanges,
  ChaosSettings,
  TestClockSpec,
  WebhookQuery,
  WorldSpec,
} from './controlInput.js';
import type { WebhookChaos } from '../webhooks/dispatcher.js';
import type { WebhookEvent } from '../webhooks/log.js';
import { isValidMsisdn } from '../domain/msisdn.js';
import type { Core } from './core.js';
import { exportSnapshot, importSnapshot } from './snapshots.js';
import { ScenarioError, parseScenario, validateScenario } from './scenario/parse.js';
import type { ScenarioRuntime } from './scenario/runtime.js';
import { type AccountScenario, type Scenario, accountScenarioSchema, scenarioSchema } from './scenario/schema.js';
import { receiveReply } from './replies.js';
import { type AccountView, type MessageView, accountView, messageView } from './inspection.js';
import { quoteExcerpt } from '../domain/excerpt.js';

export interface ClockIncidentView extends Omit<ClockIncident, 'due'> {
  /** When the task was due, rendered in the emulator's offset. */
  time: string;
}

/** A test clock: the main clock's view plus its id, optional name and the API keys of the accounts that live on it. */
export interface TestClockView extends ClockView {
  id: string;
  name: string | null;
  accounts: string[];
}

/** A test's world as one call makes it: its test clock and the account on it. */
export interface WorldView {
  clock: TestClockView;
  account: AccountView;
}

export interface ClockView extends Omit<ClockState, 'incidents'> {
  /** The current time rendered in the emulator's offset. */
  time: string;
  /** The most recent clock tasks that failed or were skipped, oldest first. */
  incidents: ClockIncidentView[];
  /** How a `runUntilIdle` or `next` command ended: tasks fired, whether nothing is left queued, and why it stopped if not. */
  run?: ClockRun;
}

/** How far `runUntilIdle` may go when no limit is given. */
const defaultRunLimit = '30d';

export class Control {
  constructor(
    private readonly core: Core,
    private readonly scenarios: ScenarioRuntime,
  ) {}

  scenario(): Scenario {
    return this.scenarios.scenario();
  }

  /** Replaces the active scenario with YAML or JSON text, or an object; a bad one is refused and changes nothing. */
  replaceScenario(input: string | unknown): Scenario {
    const scenario = readScenario(input, 'scenario', scenarioSchema);
    const changed = Object.entries(scenario.options ?? {}).filter(
      ([name, value]) =>
        JSON.stringify(value) !== JSON.stringify(this.core.options[name as keyof typeof this.core.options]),
    );
    if (changed.length > 0) {
      throw new ApiError(
        'SCENARIO_INVALID',
        `options can only be set when the emulator starts; this scenario changes ${changed.map(([name]) => name).join(', ')}. Start it with the scenario (--scenario) instead.`,
      );
    }
    this.scenarios.load(scenario);
    return scenario;
  }

  /** An account's own scenario, defaults filled in; an empty one when none is set. */
  accountScenario(apiKey: string): AccountScenario {
    const own = this.findAccount(apiKey).scenario;
    return own === undefined ? emptyAccountScenario() : (own as AccountScenario);
  }

  /**
   * Gives an account its own scenario (YAML or JSON text, or an object), consulted before the emulator's for its
   * requests and legs; it replaces any earlier one and lasts until cleared, or the account is reset or deleted.
   */
  setAccountScenario(apiKey: string, input: string | unknown): AccountScenario {
    const account = this.findAccount(apiKey);
    const scenario = readScenario(input, `scenario of ${apiKey}`, accountScenarioSchema);
    account.scenario = scenario;
    this.changed(apiKey);
    return scenario;
  }

  /** Removes an account's own scenario: the emulator's alone decides for it again. */
  clearAccountScenario(apiKey: string): void {
    delete this.findAccount(apiKey).scenario;
    this.changed(apiKey);
  }

  optOuts(apiKey: string = this.core.options.apiKey, environment: Environment = 'live'): string[] {
    return [...this.findAccount(apiKey).environments[environment].optOuts];
  }

  setOptOut(
    number: string,
    optedOut: boolean,
    apiKey: string = this.core.options.apiKey,
    environment: Environment = 'live',
  ): string[] {
    if (!isValidMsisdn(number))
      throw new ApiError('CONTROL_INVALID_REQUEST', `${quoteExcerpt(number)} is not a number such as 27831234567.`);
    const account = this.findAccount(apiKey);
    this.core.accounts.setOptOut(account, environment, number, optedOut);
    return [...account.environments[environment].optOuts];
  }

  clockState(): ClockView {
    return this.clockView(this.core.clock);
  }

  /**
   * Applies mode/speed, then `set`, then `advance`, or runs until idle / to the next task; due events
   * fire in time order on the way. Resolves once the webhook tries they caused have ended.
   */
  moveClock(command: ClockMove): Promise<() => ClockView> {
    return this.move(this.core.clock, command);
  }

  /** Makes a test clock, frozen at `startTime` (default the main clock's now) until moved. */
  createClock({ startTime, name }: TestClockSpec): TestClockView {
    return this.testClockView(
      this.core.clocks.create({ startTime: startTime === undefined ? undefined : Date.parse(startTime), name }),
    );
  }

  /**
   * A test's whole world in one call: a test clock, an account on it (its key drawn from the clock's id when not given)
   * and the account's own scenario. Everything is checked first: a refused world leaves nothing behind.
   */
  createWorld({ name, startTime, account = {}, scenario }: WorldSpec): WorldView {
    const own = scenario === undefined ? undefined : readScenario(scenario, 'world scenario', accountScenarioSchema);
    const { store, clocks } = this.core;
    if (account.apiKey !== undefined && store.accounts.has(account.apiKey))
      throw new ApiError('CONTROL_CONFLICT', `An account with API key "${account.apiKey}" already exists.`);
    for (;;) {
      const clock = clocks.create({ startTime: startTime === undefined ? undefined : Date.parse(startTime), name });
      const apiKey = account.apiKey ?? `pk_test_${(clock.id as string).slice('clock_'.length)}`;
      // A drawn key someone already took by hand: draw again rather than refuse a request that named none.
      if (store.accounts.has(apiKey)) {
        clocks.delete(clock);
        continue;
      }
      const created = this.core.accounts.create({
        ...account,
        apiKey,
        clock: clock.id,
        ...(own === undefined ? {} : { scenario: own }),
      });
      this.changed(apiKey);
      return { clock: this.testClockView(clock), account: accountView(created) };
    }
  }

  listClocks(): TestClockView[] {
    return this.core.clocks.list().map((clock) => this.testClockView(clock));
  }

  testClock(id: string): TestClockView {
    return this.testClockView(this.core.clocks.get(id));
  }

  /** Moves one test clock as `moveClock` moves the main one (no mode or speed: a test clock is always manual); only its own tasks fire. */
  async moveTestClock(id: string, command: ClockMove): Promise<() => TestClockView> {
    const clock = this.core.clocks.get(id);
    if (command.mode !== undefined || command.speed !== undefined) {
      throw new ApiError(
        'CONTROL_INVALID_REQUEST',
        `Invalid clock command: clock ${quoteExcerpt(id)} is a test clock, always manual; move it with advance, set, runUntilIdle or next (mode and speed belong to the main clock).`,
      );
    }
    const moved = await this.move(clock, command);
    return () => {
      const { run } = moved();
      return run ? { ...this.testClockView(clock), run } : this.testClockView(clock);
    };
  }

  /** Deletes a test clock and every account on it, with their messages; answers the API keys of those accounts. */
  deleteClock(id: string): string[] {
    const clock = this.core.clocks.get(id);
    const apiKeys = this.core.accounts.on(clock).map((account) => account.apiKey);
    for (const apiKey of apiKeys) this.deleteAccount(apiKey);
    this.core.clocks.delete(clock);
    return apiKeys;
  }

  /** The main clock, whose move settles the webhook tries of the accounts on it. */
  mainClock(): Clock {
    return this.core.clocks.main;
  }

  /** A test clock by id (CONTROL_NOT_FOUND for an unknown one). */
  clockById(id: string): Clock {
    return this.core.clocks.get(id);
  }

  /** The clock an account lives on. */
  clockOfAccount(apiKey: string): Clock {
    return this.findAccount(apiKey).clock;
  }

  /** The clock of a message's account. */
  clockOfMessage(id: string): Clock {
    return this.clockOfAccount(this.findMessage(id).apiKey);
  }

  /** The clock of a webhook event's account; the main clock once that account is gone (as its redelivery uses). */
  clockOfWebhook(id: string): Clock {
    return this.core.store.accounts.get(this.webhook(id).account)?.clock ?? this.core.clocks.main;
  }

  private clockView(clock: Clock): ClockView {
    const { incidents, ...state } = clock.state();
    const render = (ms: number) => formatInstant(ms, this.core.offsetMinutes);
    return {
      ...state,
      time: render(state.now),
      incidents: incidents.map(({ due, ...incident }) => ({ time: render(due), ...incident })),
    };
  }

  private testClockView(clock: Clock): TestClockView {
    const accounts = this.core.accounts.on(clock).map((account) => account.apiKey);
    return { id: clock.id as string, name: clock.name, ...this.clockView(clock), accounts };
  }

  /** Moves `clock`; the answer is read by the function it resolves with, once the webhook tries the move caused have ended. */
  private async move(clock: Clock, command: ClockMove): Promise<() => ClockView> {
    const { webhooks } = this.core;
    const from = clock.now();
    // Every part is checked before any is applied, so a command refused for its set or advance changes no mode or speed.
    const setTo = command.set === undefined ? undefined : Date.parse(command.set);
    if (setTo !== undefined) clock.checkSet(setTo, from);
    if (command.advance !== undefined) clock.checkAdvance(parseDuration(command.advance) ?? 0, setTo ?? from);
    if (command.mode !== undefined || command.speed !== undefined) clock.configure(command);
    if (setTo !== undefined) clock.set(setTo);
    if (command.advance !== undefined) clock.advance(parseDuration(command.advance) ?? 0);
    let run: ClockRun | undefined;
    if (command.runUntilIdle)
      run = await clock.runUntilIdle(parseDuration(command.limit ?? defaultRunLimit) ?? 0, () =>
        webhooks.settled(clock),
      );
    const fired = command.next ? clock.next() : 0;
    const { now, mode, speed } = clock.state();
    this.core.events.emit('clock.moved', { clock: clock.id, from, to: now, mode, speed, command: { ...command } });
    return () => {
      const ran = command.next ? { fired, idle: clock.state().pendingTasks === 0 } : run;
      return ran ? { ...this.clockView(clock), run: ran } : this.clockView(clock);
    };
  }

  /** The signed string and Signature header for a body, with an account's secret (for curl users). */
  sign(fields: unknown, apiKey = this.core.options.apiKey): { string_to_sign: string; signature: string } {
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
      throw new ApiError('CONTROL_INVALID_REQUEST', 'Send the request body to sign as a JSON object.');
    }
    const secret = this.findAccount(apiKey).signingSecret;
    return {
      string_to_sign: canonicalString(fields as RequestFields),
      signature: signRequest(fields as RequestFields, secret),
    };
  }

  listAccounts(): AccountView[] {
    return [...this.core.store.accounts.values()].map(accountView);
  }

  account(apiKey: string): AccountView {
    return accountView(this.findAccount(apiKey));
  }

  createAccount(spec: NewAccount): AccountView {
    const account = this.core.accounts.create(spec);
    this.changed(account.apiKey);
    return accountView(account);
  }

  updateAccount(apiKey: string, change: AccountChanges): AccountView {
    const account = this.findAccount(apiKey);
    this.core.accounts.update(account, change);
    this.changed(apiKey);
    return accountView(account);
  }

  /** Removes an account with its messages, replies, timers and webhook log entries (the journal's are its caller's). */
  deleteAccount(apiKey: string): void {
    const account = this.findAccount(apiKey);
    this.disarmMessagesOf(account);
    this.core.webhooks.forget(account);
    this.core.accounts.remove(apiKey);
    this.changed(apiKey);
  }

  /** One page of messages: the query pages them, so only the page's views are built. */
  listMessages(filter: MessageQuery, page: number, limit: number): Page<MessageView> {
    const records: MessageRecord[] = [];
    const total = this.core.messaging.inspect(filter, (page - 1) * limit, limit, records);
    return { items: records.map((message) => messageView(message, this.core.offsetMinutes)), total, page, limit };
  }

  message(id: string): MessageView {
    return messageView(this.findMessage(id), this.core.offsetMinutes);
  }

  /**
   * Moves the message's open legs (or the one of `recipient`) to `status` now, through legal moves
   * only: every leg is checked before any changes, and an illegal move is refused with the state
   * machine's reason. Answers with a reading of the message, for once the webhooks the changes posted were tried.
   */
  forceStatus(id: string, { status, recipient }: ForcedStatus): () => MessageView {
    const message = this.findMessage(id);
    const account = this.findAccount(message.apiKey);
    const refuse = (reason: string) =>
      new ApiError('CONTROL_INVALID_REQUEST', `Cannot move message ${id} to ${status}: ${reason}.`);
    if (message.deletedAt !== undefined) throw refuse('it was deleted');
    let legs: Leg[];
    if (recipient !== undefined) {
      const leg = message.legs.find((candidate) => candidate.recipient === recipient);
      if (!leg) throw refuse(`${recipient} is not one of its recipients (${message.recipients.join(', ')})`);
      if (message.status === 'scheduled' && message.legs.length > 1)
        throw refuse('a scheduled message goes out, or fails, with all its recipients');
      legs = [leg];
    } else {
      legs = message.legs.filter((leg) => !isFinal(leg.status));
      if (legs.length === 0) legs = message.legs.slice(0, 1);
    }
    for (const leg of legs) {
      const problem = transitionProblem(leg.status, status);
      if (problem) throw refuse(`${problem} (recipient ${leg.recipient})`);
    }
    this.core.lifecycle.force(account, message, legs, status);
    return () => messageView(message, this.core.offsetMinutes);
  }

  /** An inbound reply from a recipient of a sent message; stored, and announced as `reply.received`. */
  injectReply(messageId: string, { from, text }: InboundReply): MessageView {
    const original = this.findMessage(messageId);
    const sender = from ?? original.recipients[0];
    if (sender === undefined || !original.recipients.includes(sender)) {
      throw new ApiError(
        'CONTROL_INVALID_REQUEST',
        `${from} is not a recipient of message ${messageId} (${original.recipients.join(', ')}).`,
      );
    }
    const { store, events, random } = this.core;
    const clock = this.findAccount(original.apiKey).clock;
    const reply = receiveReply({ clock, store, events, ids: random.ids }, original, sender, text);
    return messageView(reply, this.core.offsetMinutes);
  }

  listReplies(filter: Pick<MessageQuery, 'environment' | 'account'>): MessageView[] {
    const { store } = this.core;
    const account = filter.account === undefined ? undefined : store.accounts.get(filter.account);
    if (filter.account !== undefined && account === undefined) return [];
    return (filter.environment ? [filter.environment] : environments)
      .flatMap((environment) => (account ? account.environments[environment].replies : store.replies(environment)))
      .map((reply) => messageView(reply, this.core.offsetMinutes));
  }

  listWebhooks(filter: WebhookQuery): WebhookEvent[] {
    return this.core.webhooks.log.list(filter);
  }

  webhook(id: string): WebhookEvent {
    const event = this.core.webhooks.log.get(id);
    if (!event) throw new ApiError('CONTROL_NOT_FOUND', `No webhook event has the id ${quoteExcerpt(id)}.`);
    return event;
  }

  redeliverWebhook(id: string): Promise<WebhookEvent> {
    return this.core.webhooks.redeliver(this.webhook(id));
  }

  webhookChaos(): WebhookChaos {
    return this.core.webhooks.chaosSettings();
  }

  configureWebhookChaos({ delay, ...rates }: ChaosSettings): WebhookChaos {
    return this.core.webhooks.configureChaos(
      delay === undefined ? rates : { ...rates, delayMs: parseDuration(delay) ?? 0 },
    );
  }

  /**
   * Back to the state at start-up: everything (accounts and their settings, balances, the start-up
   * scenario, opt-outs, chaos, clock, ids and random draws, logs, timers), or one account (its
   * start-up settings, or the ones it was created with, and no messages).
   */
  reset(apiKey?: string): void {
    if (apiKey === undefined) this.core.startState.reset();
    else {
      this.disarmMessagesOf(this.findAccount(apiKey));
      this.core.accounts.reset(apiKey);
    }
    this.core.events.emit('state.replaced', { reason: 'reset' });
  }

  snapshot(): Snapshot {
    return exportSnapshot(this.core);
  }

  /** Replaces the whole state with a snapshot; a snapshot that does not parse changes nothing. */
  restore(input: unknown): void {
    importSnapshot(this.core, input);
    this.core.events.emit('state.replaced', { reason: 'restore' });
  }

  /** Cancels the schedule timers of an account's messages (delivery steps stop by themselves once a message is gone). */
  private disarmMessagesOf(account: Account): void {
    for (const environment of environments)
      for (const message of account.environments[environment].messages) this.core.lifecycle.disarm(account, message);
  }

  /** Announced so live views (the web inbox) show the account as it is now. */
  private changed(apiKey: string): void {
    this.core.events.emit('account.changed', { apiKey });
  }

  private findAccount(apiKey: string): Account {
    const account = this.core.store.accounts.get(apiKey);
    if (!account) throw new ApiError('CONTROL_NOT_FOUND', `No account has the API key ${quoteExcerpt(apiKey)}.`);
    return account;
  }

  private findMessage(id: string): MessageRecord {
    for (const environment of environments) {
      const message = this.core.store.message(environment, id);
      if (message) return message;
    }
    throw new ApiError('CONTROL_NOT_FOUND', `No message has the id ${quoteExcerpt(id)} in either environment.`);
  }
}

/** A scenario from YAML or JSON text, or an object, validated by `schema`; a bad one is SCENARIO_INVALID naming `source`. */
function readScenario<S extends typeof scenarioSchema | typeof accountScenarioSchema>(
  input: unknown,
  source: string,
  schema: S,
): z.output<S> {
  try {
    return (
      typeof input === 'string'
        ? parseScenario(input, source, schema)
        : validateScenario(input, source, undefined, schema)
    ) as z.output<S>;
  } catch (error) {
    if (error instanceof ScenarioError) throw new ApiError('SCENARIO_INVALID', error.message);
    throw error;
  }
}

function emptyAccountScenario(): AccountScenario {
  return { rules: [], replies: [], faults: [], webhooks: [] };
}
