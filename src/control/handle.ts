/** The typed control handle: one interface for the in-process handle (`createEmulator`) and the remote one (over HTTP). */

import type {
  AccountInput,
  AccountPatch,
  ClockCommand,
  CostInput,
  ForceStatusInput,
  MessageFilter,
  OptOutTarget,
  ReceiverCheckInput,
  ReplyInput,
  TestClockInput,
  WaitInput,
  WebhookChaosInput,
  WebhookFilterInput,
  WorldInput,
} from './inputs.js';
import type {
  ChaosView,
  ClockView,
  LimitsView,
  OptOutView,
  SignatureView,
  TestClockView,
  WaitView,
  WorldView,
} from './views.js';
import type { AccountView } from '../engine/inspection.js';
import type { CostExplanation } from '../domain/costExplanation.js';
import type { Spend } from '../domain/spend.js';
import type { MessageView } from '../domain/messageView.js';
import type { AccountScenario, AccountScenarioInput, Scenario, ScenarioInput } from '../engine/scenario/schema.js';
import type { JournalEntry, JournalFilter } from '../journal/requestJournal.js';
import type { Snapshot } from '../state/snapshot.js';
import type { WebhookEvent } from '../domain/webhookEvent.js';
import type { Page, PageInput } from '../domain/list.js';
import type { ReceiverReport } from '../webhooks/checkReceiver.js';

/** `local`: calls answer at once (and throw `ApiError`); `remote`: every call answers with a promise. */
export type HandleMode = 'local' | 'remote';

/** What a call answers: the value itself in process, a promise over HTTP. Calls that wait for webhooks always answer a promise. */
export type Answer<M extends HandleMode, T> = M extends 'local' ? T : Promise<T>;

/** Every control operation, as a method; the HTTP control API offers the same operations under `/_emulator`. */
export interface ControlHandle<M extends HandleMode = 'local'> {
  /** `{ status: 'ok' }` once the emulator answers. */
  health(): Answer<M, { status: 'ok' }>;
  /** The limits applied, as started: most recipients per request (`batchLimit`, and why), longest text, largest body. */
  limits(): Answer<M, LimitsView>;
  readonly clock: {
    /** Current clock state: time, mode, speed, queued tasks, recent incidents. */
    state(): Answer<M, ClockView>;
    /** The emulator's current time as a `Date`: give it to the app under test (in the vitest fixture, `sms.now()` is the test clock's). */
    now(): Answer<M, Date>;
    /** Applies mode/speed, then `set`, then `advance` (or `runUntilIdle`, or `next`); answers once the webhooks it made due were tried. */
    move(command: ClockCommand): Promise<ClockView>;
    /** Moves the clock forward (`'15m'`, `'90s'`, ms), firing due events in order; answers after their webhooks were tried. */
    advance(duration: string | number): Promise<ClockView>;
    /** Sets the clock to an ISO instant (never backwards); answers after the webhooks it made due were tried. */
    set(instant: string): Promise<ClockView>;
    /** Changes mode (`manual`, `realtime`) and/or speed. */
    configure(settings: Pick<ClockCommand, 'mode' | 'speed'>): Promise<ClockView>;
    /** Fires due events in order until nothing is queued or the clock reaches now + `limit` (default `'30d'`); `run` says which. */
    runUntilIdle(options?: { limit?: string | number }): Promise<ClockView>;
    /** Jumps to the next queued event's time and fires what is due then. */
    next(): Promise<ClockView>;
  };
  /** Test clocks: each frozen until moved, moved apart from the main clock and from each other; accounts created with `clock: id` live on one. */
  readonly clocks: {
    /** Every test clock, in creation order. */
    list(filter?: PageInput): Answer<M, Page<TestClockView>>;
    /** One test clock by id. */
    get(id: string): Answer<M, TestClockView>;
    /**
     * Makes a test clock at `startTime` (default the main clock's now), frozen until moved.
     * @example const clock = await emulator.clocks.create({ name: 'booking test' }); await emulator.accounts.create({ apiKey: 'pk_booking', clock: clock.id });
     */
    create(clock?: TestClockInput): Answer<M, TestClockView>;
    /** Moves a test clock (`advance`, `set`, `runUntilIdle`, `next`; never mode or speed); only its tasks fire; answers once their webhooks were tried. */
    move(id: string, command: ClockCommand): Promise<TestClockView>;
    /** Deletes a test clock and every account on it, with their messages. */
    delete(id: string): Answer<M, void>;
    /** A test clock's time as a `Date`. */
    now(id: string): Answer<M, Date>;
    /** Moves a test clock forward (`'15m'`, `'90s'`, ms), firing its due events in order. */
    advance(id: string, duration: string | number): Promise<TestClockView>;
    /** Sets a test clock to an ISO instant (never backwards). */
    set(id: string, instant: string): Promise<TestClockView>;
    /** Fires a test clock's due events in order until none is queued or it reaches now + `limit` (default `'30d'`). */
    runUntilIdle(id: string, options?: { limit?: string | number }): Promise<TestClockView>;
    /** Jumps a test clock to its next queued event's time and fires what is due then. */
    next(id: string): Promise<TestClockView>;
  };
  readonly worlds: {
    /**
     * A test's world in one call: a test clock, an account on it (its API key drawn when not given) and the account's
     * own scenario; all or nothing. Deleting the clock deletes the world.
     * @example const { clock, account } = await emulator.worlds.create({ name: 'checkout test' });
     */
    create(world?: WorldInput): Answer<M, WorldView>;
  };
  readonly accounts: {
    /** Every account with balances, webhook URLs and opt-outs per environment, in creation order. */
    list(filter?: PageInput): Answer<M, Page<AccountView>>;
    /** One account by API key. */
    get(apiKey: string): Answer<M, AccountView>;
    /** Adds an account (`apiKey` starts with `pk_`). */
    create(account: AccountInput): Answer<M, AccountView>;
    /** Sets or adds balance, changes webhook URLs, signing secret or scopes. */
    update(apiKey: string, patch: AccountPatch): Answer<M, AccountView>;
    /** Removes an account and its messages. */
    delete(apiKey: string): Answer<M, void>;
    /**
     * What the account spent (both environments): its credits, its messages, the five costliest each explained in a
     * line, and the whole as a failure shows it.
     * @example const { credits, summary } = await emulator.accounts.spend('pk_test_a');
     */
    spend(apiKey: string): Answer<M, Spend>;
    /** The account's own scenario (rules, replies, faults), defaults filled in; empty lists when it has none. */
    getScenario(apiKey: string): Answer<M, AccountScenario>;
    /**
     * Gives the account its own scenario (YAML/JSON text or an object), consulted before the emulator's for its
     * requests and legs only, like msw's `server.use` for one account; gone when cleared, or the account is reset or deleted.
     * @example emulator.accounts.setScenario('pk_test_a', { rules: [{ match: { recipient: '27831234567' }, outcome: 'undelivered' }] });
     */
    setScenario(apiKey: string, scenario: string | AccountScenarioInput): Answer<M, AccountScenario>;
    /** Removes the account's own scenario: the emulator's alone decides for it again. */
    clearScenario(apiKey: string): Answer<M, void>;
    /** Gives the account a bundled scenario by name (`'degraded-api'`) as its own, its balance, opt-outs and timeline acting on this account. */
    useBundledScenario(apiKey: string, name: string): Answer<M, AccountScenario>;
  };
  readonly messages: {
    /** Messages of both environments with legs and history, newest first; filters `environment`, `account`, `status`, `recipient`. */
    list(filter?: MessageFilter & PageInput): Answer<M, Page<MessageView>>;
    /** One message with legs, history and upcoming changes. */
    get(id: string): Answer<M, MessageView>;
    /**
     * Moves the message's open legs (or the one of `recipient`) to `status` now, through legal moves only, posting
     * the webhooks as if it had happened; resolves after they were tried.
     * @example await emulator.messages.forceStatus(sent.id, { status: 'undelivered' });
     */
    forceStatus(id: string, input: ForceStatusInput): Promise<MessageView>;
    /**
     * `waitFor(id).toReach(status)` in one call: moves the message's own clock to each of its next changes until it
     * has `status` (and its webhooks were tried), within `within` of its clock (default `'1h'`); CONTROL_WAIT_FAILED
     * with its history when it ends otherwise.
     */
    wait(id: string, input: WaitInput): Promise<WaitView>;
  };
  readonly replies: {
    /** An inbound reply from a recipient (`from`, default the first) to a sent message; answers after its webhook was tried. */
    inject(messageId: string, reply: ReplyInput): Promise<MessageView>;
    /** Inbound replies, oldest first; filters `environment`, `account`. */
    list(filter?: Pick<MessageFilter, 'environment' | 'account'> & PageInput): Answer<M, Page<MessageView>>;
  };
  readonly webhooks: {
    /** Logged webhook events with every try, oldest first; filters `account`, `environment`, `message`, `state`. */
    list(filter?: WebhookFilterInput & PageInput): Answer<M, Page<WebhookEvent>>;
    /** One logged webhook event. */
    get(id: string): Answer<M, WebhookEvent>;
    /** Posts an event again to the account's current URL; answers when its tries end. */
    redeliver(id: string): Promise<WebhookEvent>;
    /**
     * Answers once every webhook try under way or due has ended; with `{ account }`, once those of that account's clock
     * have (a receiver hanging on another clock does not hold it).
     */
    settled(options?: { account?: string }): Promise<{ status: 'settled' }>;
    /** The delivery-behaviour rates in force (emulator-wide duplicate, late and reorder with a probability). */
    chaos(): Answer<M, ChaosView>;
    /** Changes the delivery-behaviour rates (`duplicateRate`, `delayRate`, `reorderRate`, `delay`); fields left out keep their value. */
    setChaos(settings: WebhookChaosInput): Answer<M, ChaosView>;
  };
  /**
   * Runs check-receiver's battery against a webhook receiver (with its state hook, `state`, when given) and answers the
   * report `check-receiver --json` prints; the emulator's webhook timeout and signing secret unless given.
   * @example const report = await emulator.receiverCheck({ receiver: 'http://127.0.0.1:4000/hooks', state: 'http://127.0.0.1:4000/sms/{id}' });
   */
  receiverCheck(input: ReceiverCheckInput): Promise<ReceiverReport>;
  readonly scenario: {
    /** The active scenario, defaults filled in. */
    get(): Answer<M, Scenario>;
    /** Replaces the active scenario (YAML/JSON text or an object); a bad one is refused and changes nothing. */
    set(scenario: string | ScenarioInput): Answer<M, Scenario>;
    /** The scenarios shipped with the emulator, by name with what each does. */
    bundled(): Answer<M, { scenarios: { name: string; description: string }[] }>;
    /** Makes a bundled scenario the active one by name (`'happy-path'`): no file needed, outside a checkout too. */
    useBundled(name: string): Answer<M, Scenario>;
  };
  readonly optOuts: {
    /** Numbers opted out of an account's environment (default account, live). */
    list(filter?: OptOutTarget & PageInput): Answer<M, Page<string>>;
    /** Opts a number out. */
    add(number: string, target?: OptOutTarget): Answer<M, OptOutView>;
    /** Opts a number back in. */
    remove(number: string, target?: OptOutTarget): Answer<M, OptOutView>;
  };
  readonly requests: {
    /** Journal entries of API requests (accepted or rejected), newest first; filters `account`, `environment`, `method`, `path`, `status`, `code`, `since`, `message`. */
    find(filter?: JournalFilter & PageInput): Answer<M, Page<JournalEntry>>;
    /** How many journal entries match the filter. */
    count(filter?: JournalFilter): Answer<M, number>;
  };
  /**
   * Why a text costs what it costs under the emulator's pricing: encoding, segments, the characters that forced UCS-2
   * with their positions and what was usually meant, the credits for `recipients` (default 1).
   * @example const { triggers, credits } = await emulator.cost({ text: 'It’s here', recipients: 2 });
   */
  cost(input: CostInput): Answer<M, CostExplanation>;
  /** The string to sign and the `Signature` header for a body, with an account's secret (default account if none). */
  sign(fields: Record<string, unknown>, apiKey?: string): Answer<M, SignatureView>;
  /** Back to the start state: everything, or one account's data and settings (`{ account }`). */
  reset(options?: { account?: string }): Answer<M, { status: 'reset' }>;
  /** The whole state as JSON data. */
  snapshot(): Answer<M, Snapshot>;
  /** Replaces the whole state with a snapshot; a bad one is refused and changes nothing. */
  restore(snapshot: Snapshot): Answer<M, { status: 'restored' }>;
}
