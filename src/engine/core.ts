/** The emulator's state and engine wired together, without HTTP: store, clock, randomness, lifecycle. */

import { randomBytes } from 'node:crypto';
import { parseDuration, parseOffset } from '../domain/time.js';
import { EmulatorEmitter } from '../events.js';
import { type ResolvedOptions, publicOrigin } from '../options.js';
import { anyHost } from '../domain/hostNames.js';
import { ownName } from '../domain/ownAddress.js';
import { Clock, type ClockIncident, describeIncident } from '../state/clock.js';
import { type Random, type RandomState, createRandom } from '../state/random.js';
import { Store } from '../state/store.js';
import { apiPrefixes } from '../domain/environment.js';
import type { Environment } from '../domain/message.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { Accounts } from './accounts.js';
import { Clocks } from './clocks.js';
import { Lifecycle } from './lifecycle.js';
import { Messaging } from './messages.js';
import { OutcomeChain } from './outcomes.js';
import { namedTimelines } from './scenario/match.js';
import { StartState } from './startState.js';
import { ImportGate } from './importGate.js';
import { TimelineLog } from './timelineLog.js';
import { WallTimers } from '../state/wallTimers.js';

export const randomStreams = ['ids', 'outcomes', 'replies', 'text', 'faults', 'webhooks', 'clocks', 'secrets'] as const;
export type RandomStream = (typeof randomStreams)[number];

export interface Core {
  options: ResolvedOptions;
  seed: string;
  startTime: number;
  offsetMinutes: number;
  /** The main clock (what accounts without a test clock live on). */
  clock: Clock;
  /** The main clock and the test clocks. */
  clocks: Clocks;
  store: Store;
  events: EmulatorEmitter;
  /** Named random streams; each part draws from its own so one never shifts another. */
  random: Record<RandomStream, Random>;
  /** Where each random stream started, for reset. */
  initialRandom: Record<RandomStream, RandomState>;
  /** Accounts, their defaults and every balance change. */
  accounts: Accounts;
  lifecycle: Lifecycle;
  messaging: Messaging;
  /** The one routine behind start-up, reset and the clearing before a snapshot import; every holder of state registers with it. */
  startState: StartState;
  /** Clock moves and injected faults, for the timeline report. */
  timeline: TimelineLog;
  webhooks: WebhookDispatcher;
  /** Every host timer the emulator starts (fault latency, slow bodies, webhook backoff): close() ends them all. */
  wallTimers: WallTimers;
  /** The one chain that decides each leg's timeline; the scenario and the user decider plug into their own layers. */
  outcomes: OutcomeChain;
  /** Held while an import over HTTP puts a snapshot's state in place, slice by slice: requests are refused meanwhile, health is not. */
  imports: ImportGate;
  /**
   * Where this emulator can be reached, which no webhook is posted to: `publicUrl`'s origin and the `allowedHosts` names
   * from the start; the HTTP layer adds its port and names when it listens.
   */
  own: { ports: number[]; names: string[]; origins: string[] };
}

/** Origin plus environment prefix, joined once per origin: every webhook event reads it, and a new string each time was garbage. */
function apiBases(linkOrigin: () => string): (environment: Environment) => string {
  let origin: string | undefined;
  let bases: Record<Environment, string> = { live: '', sandbox: '' };
  return (environment) => {
    const current = linkOrigin();
    if (current !== origin) {
      origin = current;
      bases = { live: current + apiPrefixes.live, sandbox: current + apiPrefixes.sandbox };
    }
    return bases[environment];
  };
}

/** `linkOrigin` gives the origin that links inside webhook payloads use (the listening address). */
export function createCore(options: ResolvedOptions, linkOrigin: () => string): Core {
  const seed = options.seed ?? randomBytes(6).toString('hex');
  const offsetMinutes = parseOffset(options.timeZoneOffset) ?? 0;
  const startTime = options.startTime === undefined ? Date.now() : Date.parse(options.startTime);
  const events = new EmulatorEmitter();
  const incident = (clock: Clock) => (happened: ClockIncident) => {
    const where = clock.id === null ? '' : `test clock ${clock.id}: `;
    process.stderr.write(`sms-emulator: ${where}${describeIncident(happened, offsetMinutes)}\n`);
    events.emit('clock.incident', { incident: happened, clock: clock.id });
  };
  const clock: Clock = new Clock({ mode: options.clock, speed: options.speed, startTime }, (happened) =>
    incident(clock)(happened),
  );
  const store = new Store();
  const root = createRandom(seed);
  const random = Object.fromEntries(randomStreams.map((name) => [name, root.fork(name)])) as Record<
    RandomStream,
    Random
  >;
  const clocks = new Clocks(clock, random.clocks, (happened, testClock) => incident(testClock)(happened));
  const outcomes = new OutcomeChain();
  outcomes.use('header', (message) => {
    const forced = message.outcomeOverride;
    return forced && (() => forced);
  });
  outcomes.use('optOut', (message, account) => {
    const optOuts = account.environments[message.environment].optOuts;
    return optOuts.size === 0 ? undefined : (recipient) => (optOuts.has(recipient) ? namedTimelines.blist : undefined);
  });
  const lifecycle = new Lifecycle(
    store,
    events,
    { pricing: options.pricing, validityMs: parseDuration(options.validityPeriod) ?? 0 },
    outcomes,
  );
  const wallTimers = new WallTimers();
  const origin = publicOrigin(options);
  const own: Core['own'] = {
    ports: [],
    names: (options.allowedHosts ?? []).filter((name) => name !== anyHost).map(ownName),
    origins: origin === undefined ? [] : [origin],
  };
  const webhooks = new WebhookDispatcher(
    clock,
    store,
    events,
    random.webhooks,
    wallTimers,
    {
      retries: options.webhookRetries,
      backoffMs: parseDuration(options.webhookBackoff) ?? 0,
      timeoutMs: parseDuration(options.webhookTimeout) ?? 5000,
      logLimit: options.webhookLogLimit,
      signingSecret: options.webhookSigningSecret,
      notifyOn: options.notifyOn,
      offsetMinutes,
      rates: {
        duplicateRate: options.webhookDuplicateRate,
        delayRate: options.webhookDelayRate,
        reorderRate: options.webhookReorderRate,
        delayMs: parseDuration(options.webhookDelay) ?? 0,
      },
    },
    apiBases(linkOrigin),
    own,
  );
  const messaging = new Messaging(store, random.ids, lifecycle, events, { ...options, offsetMinutes });
  const accounts = new Accounts(
    store,
    options.balance,
    options.webhookSigningSecret ?? null,
    random.secrets,
    clocks,
    (apiKey) => events.emit('account.changed', { apiKey }),
    own,
  );
  const initialRandom = Object.fromEntries(randomStreams.map((name) => [name, random[name].save()])) as Record<
    RandomStream,
    RandomState
  >;
  const startState = new StartState();
  startState.register({
    clear: () => {
      clock.restart(startTime);
      clock.configure({ mode: options.clock, speed: options.speed });
      for (const stream of randomStreams) random[stream].restore(initialRandom[stream]);
      accounts.clear();
      clocks.clear();
      lifecycle.clear();
      // A decider set at runtime is runtime state like a scenario: a test sets its own in beforeEach.
      outcomes.use('user', undefined);
      webhooks.reset();
    },
    start: () => {
      accounts.create({
        apiKey: options.apiKey,
        signingSecret: options.signingSecret,
        balance: options.balance,
        webhookUrl: options.webhookUrl ?? null,
      });
    },
    started: () => accounts.captureStart(),
  });
  const timeline = new TimelineLog(events);
  startState.register({ clear: () => timeline.clear() });
  return {
    imports: new ImportGate(),
    own,
    options,
    seed,
    startTime,
    offsetMinutes,
    clock,
    clocks,
    store,
    events,
    random,
    initialRandom,
    accounts,
    lifecycle,
    messaging,
    webhooks,
    wallTimers,
    startState,
    outcomes,
    timeline,
  };
}
