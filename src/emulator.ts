/** createEmulator: the library handle that wires state, clock, engine and app, and can listen on a port. */

import { type ClockView, Control } from './engine/control.js';
import type { AccountInput, AccountPatch, ClockCommand, MessageFilter, ReplyInput, WebhookChaosInput, WebhookFilterInput } from './engine/controlInput.js';
import { createCore } from './engine/core.js';
import { subscribe } from './engine/publicEvents.js';
import { defaultScenario } from './engine/scenario/defaultScenario.js';
import { loadScenarios } from './engine/scenario/files.js';
import { validateScenario } from './engine/scenario/parse.js';
import { ScenarioRuntime, type TextGenerator } from './engine/scenario/runtime.js';
import type { Scenario, ScenarioInput } from './engine/scenario/schema.js';
import { createTextGenerator } from './engine/scenario/textGenerator.js';
import { type AccountView, type MessageView, accountView, messageView } from './engine/inspection.js';
import { type OutcomeDecider, userLayer } from './engine/outcomes.js';
import type { EmulatorEvents, EventName } from './events.js';
import { createApp } from './http/app.js';
import { type Listening, type NodeListener, isLoopback, listen, nodeListener } from './http/server.js';
import { type EmulatorOptions, type ResolvedOptions, publicOrigin, resolveOptions } from './options.js';
import { feedViews } from './ui/feedViews.js';
import { LiveFeed } from './ui/liveFeed.js';
import { reportPage } from './ui/reportPage.js';
import { writeReport } from './ui/reportFile.js';
import { type TimelineReport, timelineReport } from './ui/timelineReport.js';
import type { Snapshot } from './state/snapshot.js';
import type { WebhookChaos } from './webhooks/dispatcher.js';
import type { WebhookEvent } from './webhooks/log.js';
import { type MessageWait, waitFor } from './testing/waitFor.js';

export interface ListenOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
}

export interface EmulatorUrls {
  /** `http://127.0.0.1:2727`: the control API is at `<origin>/_emulator`. */
  origin: string;
  /** Live base address (`<origin>/v1` is where the API lives). */
  live: string;
  /** Sandbox base address (`<origin>/sandbox`). */
  sandbox: string;
  port: number;
}

export interface ReportOptions {
  /** API key of the account; the default account when not given. */
  account?: string;
  format?: 'html' | 'json';
}

/** The handle `createEmulator` returns; every control endpoint has a method here. */
export interface Emulator {
  /** The settings in force, defaults filled in. */
  readonly options: ResolvedOptions;
  /** The seed of ids and random choices (the given one, or the one picked at start). */
  readonly seed: string;
  /** Handles a Fetch API request without a socket. */
  fetch(request: Request): Promise<Response>;
  /** A Node `(req, res)` listener, for supertest or your own server. */
  readonly requestListener: NodeListener;
  /** Starts listening; resolves with the addresses. */
  listen(options?: ListenOptions): Promise<EmulatorUrls>;
  /** The addresses while listening, else undefined. */
  readonly urls: EmulatorUrls | undefined;
  /** Stops listening, the clock and any webhook try under way (logged as failed); the handle is done after it. */
  close(): Promise<void>;
  /** Subscribes to engine events (listeners get read-only copies; one that throws is reported on stderr); returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EmulatorEvents[E]) => void): () => void;
  readonly clock: {
    /** Current clock state (time, mode, speed, queued tasks). */
    state(): ClockView;
    /** The emulator's current time as a `Date`: give it to the app under test (see `useEmulatorTime` in `sms-emulator/vitest`). */
    now(): Date;
    /** Moves the clock forward (`'15m'`, `'90s'`, ms), firing due events in order. */
    advance(duration: string | number): Promise<ClockView>;
    /** Sets the clock to an ISO instant (never backwards). */
    set(instant: string): Promise<ClockView>;
    /** Changes mode and/or speed. */
    configure(settings: Pick<ClockCommand, 'mode' | 'speed'>): Promise<ClockView>;
    /**
     * Fires due events in order until nothing is queued, or until the clock reaches now + `limit`
     * (default `'30d'`); `run.idle` and `run.stoppedAt` say which. Resolves after the webhooks it caused were tried.
     */
    runUntilIdle(options?: { limit?: string | number }): Promise<ClockView>;
    /** Jumps to the next queued event's time and fires what is due then; resolves after its webhooks were tried. */
    next(): Promise<ClockView>;
  };
  readonly accounts: {
    list(): AccountView[];
    get(apiKey: string): AccountView;
    create(account: AccountInput): AccountView;
    /** Sets or adds balance, changes webhook URLs, secret or scopes. */
    update(apiKey: string, patch: AccountPatch): AccountView;
    delete(apiKey: string): void;
  };
  readonly messages: {
    /** Every message with legs and history, newest first. */
    list(filter?: MessageFilter): MessageView[];
    get(id: string): MessageView;
  };
  readonly replies: {
    /** An inbound reply from a recipient to a message. */
    inject(reply: ReplyInput): MessageView;
    list(filter?: MessageFilter): MessageView[];
  };
  /** The signed string and Signature header for a body, with an account's secret (default account if none). */
  sign(fields: Record<string, unknown>, apiKey?: string): { string_to_sign: string; signature: string };
  readonly webhooks: {
    /** Logged webhook events with every try, oldest first. */
    list(filter?: WebhookFilterInput): WebhookEvent[];
    get(id: string): WebhookEvent;
    /** Posts an event again to the account's current URL; resolves when its tries end. */
    redeliver(id: string): Promise<WebhookEvent>;
    /** Resolves once every webhook try under way or due has finished. */
    settled(): Promise<void>;
    /** Reads or changes the receiver chaos (duplicate, delay, reorder). */
    chaos(settings?: WebhookChaosInput): WebhookChaos;
  };
  readonly scenario: {
    /** The active scenario, defaults filled in. */
    get(): Scenario;
    /** Replaces the active scenario (YAML/JSON text or an object); a bad one throws and changes nothing. */
    set(scenario: string | ScenarioInput): Scenario;
  };
  readonly optOuts: {
    list(apiKey?: string, environment?: 'live' | 'sandbox'): string[];
    add(number: string, apiKey?: string, environment?: 'live' | 'sandbox'): string[];
    remove(number: string, apiKey?: string, environment?: 'live' | 'sandbox'): string[];
  };
  /** Back to the start state: all, or one account. */
  reset(options?: { account?: string }): void;
  /** The whole state as JSON data. */
  snapshot(): Snapshot;
  /** Replaces the whole state with a snapshot. */
  restore(snapshot: Snapshot): void;
  /**
   * Puts `decider` in the user layer of the outcome chain (header → opt-out → user decider →
   * scenario rules → default timeline); it answers undefined to let the scenario decide, and
   * `undefined` removes it. Reset removes it too: set it in `beforeEach`.
   */
  setOutcomeDecider(decider: OutcomeDecider | undefined): void;
  /**
   * One account's timeline (requests, status changes, webhook tries, clock moves, faults) in virtual-time
   * order: a self-contained HTML page, or its data with `format: 'json'`. Default account when none is named.
   *
   * @example
   * await writeFile('timeline.html', emulator.report({ account: 'pk_test_sms_emulator' }));
   */
  report(options?: ReportOptions & { format?: 'html' }): string;
  report(options: ReportOptions & { format: 'json' }): TimelineReport;
  /**
   * Waits for a message to reach a status on the emulator's clock, moving a manual clock as far as needed.
   * @example await emulator.waitFor(sent.id).toReach('delivered', { within: '5m' });
   */
  waitFor(messageId: string): MessageWait;
}

/**
 * Creates an emulator; options are validated before anything starts.
 *
 * @example
 * const emulator = createEmulator({ clock: 'manual', seed: 'test' });
 * const response = await emulator.fetch(new Request('http://localhost/v1/messages/balance', { headers }));
 */
export function createEmulator(input: EmulatorOptions = {}): Emulator {
  const sources = input.scenario === undefined ? [] : Array.isArray(input.scenario) ? input.scenario : [input.scenario];
  const scenario = sources.length === 0 ? validateScenario(defaultScenario, 'built-in scenario') : loadScenarios(sources);
  // Options given directly win over the scenario's own.
  const options = resolveOptions({ ...(scenario.options as EmulatorOptions), ...input });
  let listening: { server: Listening; urls: EmulatorUrls } | undefined;
  const fixedOrigin = publicOrigin(options);
  const core = createCore(options, () => fixedOrigin ?? listening?.urls.origin ?? `http://${options.host}:${options.port}`);
  let textGenerator: TextGenerator | undefined;
  const scenarios = new ScenarioRuntime(core, options, () => (textGenerator ??= createTextGenerator(core.random.text)), scenario);
  const control = new Control(core, scenarios);
  // Start-up is the first run of the routine every reset runs, so a reset returns exactly here.
  core.startState.reset();
  const moveClock = (command: ClockCommand): Promise<ClockView> => control.moveClock(command);
  const feed = new LiveFeed(
    core.events,
    feedViews(core, () => control.clockState()),
  );
  const report = (account: string = options.apiKey): TimelineReport => timelineReport(core, account);
  const app = createApp({ core, control, moveClock, faults: scenarios.faults, feed, report });
  const fetch = async (request: Request): Promise<Response> => app.fetch(request);
  const requestListener = nodeListener(fetch);

  const emulator: Emulator = {
    options,
    seed: core.seed,
    fetch,
    requestListener,
    async listen(listenOptions = {}) {
      if (listening) return listening.urls;
      const host = listenOptions.host ?? options.host;
      const server = await listen(requestListener, host, listenOptions.port ?? options.port);
      if (!isLoopback(host) && options.controlToken === undefined) {
        process.stderr.write(
          `sms-emulator: warning: listening on ${host}, reachable from other machines, without a control token: anyone who can reach the port can read, change and reset the emulator. Set --control-token (SMS_EMULATOR_CONTROL_TOKEN).\n`,
        );
      }
      const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
      const origin = `http://${shownHost}:${server.port}`;
      const urls = { origin, live: origin, sandbox: `${origin}/sandbox`, port: server.port };
      listening = { server, urls };
      return urls;
    },
    get urls() {
      return listening?.urls;
    },
    async close() {
      if (options.reportOnExit !== undefined) await writeReport(options.reportOnExit, report());
      feed.close();
      core.clock.dispose();
      await core.webhooks.close();
      const server = listening?.server;
      listening = undefined;
      await server?.close();
    },
    on: (event, listener) => subscribe(core.events, core.offsetMinutes, event, listener),
    clock: {
      state: () => control.clockState(),
      now: () => new Date(control.clockState().now),
      advance: (duration) => moveClock({ advance: duration }),
      set: (instant) => moveClock({ set: instant }),
      configure: (settings) => moveClock(settings),
      runUntilIdle: (runOptions = {}) => moveClock({ runUntilIdle: true, ...runOptions }),
      next: () => moveClock({ next: true }),
    },
    accounts: {
      list: () => control.listAccounts(),
      get: (apiKey) => control.account(apiKey),
      create: (account) => control.createAccount(account),
      update: (apiKey, patch) => control.updateAccount(apiKey, patch),
      delete: (apiKey) => control.deleteAccount(apiKey),
    },
    messages: {
      list: (filter) => control.listMessages(filter),
      get: (id) => control.message(id),
    },
    replies: {
      inject: (reply) => control.injectReply(reply),
      list: (filter) => control.listReplies(filter),
    },
    webhooks: {
      list: (filter) => control.listWebhooks(filter),
      get: (id) => control.webhook(id),
      redeliver: (id) => control.redeliverWebhook(id),
      settled: () => core.webhooks.settled(),
      chaos: (settings) => control.webhookChaos(settings),
    },
    scenario: {
      get: () => control.scenario(),
      set: (next) => control.replaceScenario(next),
    },
    optOuts: {
      list: (apiKey, environment) => control.optOuts(apiKey, environment),
      add: (number, apiKey, environment) => control.setOptOut(number, true, apiKey, environment),
      remove: (number, apiKey, environment) => control.setOptOut(number, false, apiKey, environment),
    },
    sign: (fields, apiKey) => control.sign(fields, apiKey),
    reset: (resetOptions) => control.reset(resetOptions?.account),
    snapshot: () => control.snapshot(),
    restore: (snapshot) => control.restore(snapshot),
    setOutcomeDecider: (decider) =>
      core.outcomes.use('user', decider && userLayer(decider, { message: (message) => messageView(message, core.offsetMinutes), account: accountView })),
    report: ((reportOptions: ReportOptions = {}) => {
      const data = report(reportOptions.account);
      return reportOptions.format === 'json' ? data : reportPage(data);
    }) as Emulator['report'],
    waitFor: (messageId) => waitFor(emulator, messageId),
  };
  return emulator;
}
