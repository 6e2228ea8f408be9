/** createEmulator: the library handle that wires state, clock, engine and app, and can listen on a port. */

import type { ControlHandle } from './control/handle.js';
import { localHandle } from './control/localHandle.js';
import type { OperationDeps } from './control/operation.js';
import { clockView, testClockView } from './control/views.js';
import { createCore } from './engine/core.js';
import { subscribe } from './engine/publicEvents.js';
import { defaultScenario } from './engine/scenario/defaultScenario.js';
import { loadScenarios } from './engine/scenario/files.js';
import { validateScenario } from './engine/scenario/parse.js';
import { ScenarioRuntime, type TextGenerator } from './engine/scenario/runtime.js';
import { createTextGenerator } from './engine/scenario/textGenerator.js';
import { accountView } from './engine/inspection.js';
import { messageView } from './domain/messageView.js';
import { type OutcomeDecider, userLayer } from './engine/outcomes.js';
import type { EmulatorEvents, EventName } from './events.js';
import { createApiHandler } from './http/apiHandler.js';
import { createApp } from './http/app.js';
import { isLoopback, isWildcardHost } from './domain/hostNames.js';
import { environmentPaths } from './domain/environment.js';
import { HostCheck, guardHost } from './http/checks/hostCheck.js';
import { responseSettings } from './http/respond.js';
import { type Listening, type NodeListener, listen, nodeListener, ownNames } from './http/server.js';
import { type TlsMaterial, tlsMaterial } from './http/tls.js';
import { logLine } from './journal/logLine.js';
import { RequestJournal } from './journal/requestJournal.js';
import { type EmulatorOptions, type ResolvedOptions, publicOrigin, resolveOptions } from './options.js';
import { feedViews } from './ui/feedViews.js';
import { LiveFeed } from './ui/liveFeed.js';
import { reportPage } from './ui/reportPage.js';
import { writeReport } from './ui/reportFile.js';
import { type ReportFormat, type TimelineReport, timelineReport } from './ui/timelineReport.js';
import { type MessageWait, waitAnswer, waitFor } from './control/waitFor.js';
import type { WebhookReceiver } from './webhooks/transport.js';

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
  format?: ReportFormat;
}

/** The handle `createEmulator` returns: the control operations (`ControlHandle`) plus the lifecycle of this emulator. */
export interface Emulator extends ControlHandle<'local'> {
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
  /**
   * With `tls` (or `tlsCert`/`tlsKey`), once listening: the certificate (PEM) for a test client to
   * trust, e.g. `new https.Agent({ ca: emulator.tls.cert })` or `NODE_EXTRA_CA_CERTS`, and its SHA-256 fingerprint.
   */
  readonly tls: { cert: string; fingerprint: string; selfSigned: boolean } | undefined;
  /** Stops listening, the clock and any webhook try under way (logged as failed); the handle is done after it. */
  close(): Promise<void>;
  /**
   * Delivers the webhooks whose URL starts with `urlPrefix` to `receiver` in this process, without a socket: every rule
   * of a try stays (signing, re-attempts on any answer but 200, the timeout, the log). The vitest fixture routes its
   * catcher through it. Returns the function that stops it.
   *
   * @example
   * const stop = emulator.receiveWebhooksLocally('http://hooks.test/', ({ body }) => (seen.push(JSON.parse(body)), 200));
   */
  receiveWebhooksLocally(urlPrefix: string, receiver: WebhookReceiver): () => void;
  /** Subscribes to engine events (listeners get read-only copies; one that throws is reported on stderr); returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EmulatorEvents[E]) => void): () => void;
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
  const scenario =
    sources.length === 0 ? validateScenario(defaultScenario, 'built-in scenario') : loadScenarios(sources);
  // Options given directly win over the scenario's own.
  const options = resolveOptions({ ...(scenario.options as EmulatorOptions), ...input });
  let listening: { server: Listening; urls: EmulatorUrls } | undefined;
  const fixedOrigin = publicOrigin(options);
  const ownOrigin = (): string => fixedOrigin ?? listening?.urls.origin ?? `http://${options.host}:${options.port}`;
  const core = createCore(options, ownOrigin);
  let textGenerator: TextGenerator | undefined;
  const scenarios = new ScenarioRuntime(
    core,
    options,
    () => (textGenerator ??= createTextGenerator(core.random.text)),
    scenario,
  );
  // Start-up is the first run of the routine every reset runs, so a reset returns exactly here.
  core.startState.reset();
  const journal = new RequestJournal(options.requestJournalLimit, core.offsetMinutes);
  core.startState.register({ clear: () => journal.clear() });
  if (options.logRequests)
    journal.subscribe((entry) => process.stdout.write(`${logLine(entry(), options.logFormat)}\n`));
  const operations: OperationDeps = {
    core,
    scenarios,
    journal,
    waitFor: (messageId, status, within) => waitAnswer(emulator, messageId, status, within),
  };
  const feed = new LiveFeed(
    core.events,
    feedViews(
      core,
      () => clockView(core, core.clock),
      () => core.clocks.list().map((clock) => testClockView(core, clock)),
    ),
  );
  const report = (account: string = options.apiKey): TimelineReport =>
    timelineReport(core, account, journal.find({ account }).reverse());
  const api = createApiHandler({ core, faults: scenarios, journal });
  const app = createApp({ core, operations, api, feed, report, origin: ownOrigin });
  const fetch = async (request: Request): Promise<Response> => app.fetch(request);
  const hosts = new HostCheck({
    allowed: options.allowedHosts ?? [],
    listening: [options.host],
    publicHost: fixedOrigin && new URL(fixedOrigin).hostname,
  });
  const settings = responseSettings(options);
  // The node listener hands hono its socket (`c.env.outgoing`), so a network fault can fail it on the fallback path too.
  const requestListener = guardHost(
    nodeListener(app, {
      handler: api,
      maxBodySize: options.maxBodySize,
      wallTimers: core.wallTimers,
      settings,
    }),
    hosts,
    settings,
    ownOrigin,
  );
  /** Made (or read) on the first listen, kept for later ones so a client's trust stays valid. */
  let tls: TlsMaterial | undefined;

  const emulator: Emulator = {
    ...localHandle(operations),
    options,
    seed: core.seed,
    fetch,
    requestListener,
    async listen(listenOptions = {}) {
      if (listening) return listening.urls;
      const host = listenOptions.host ?? options.host;
      tls ??= await tlsMaterial(options, host);
      hosts.listenOn(host);
      const server = await listen(requestListener, host, listenOptions.port ?? options.port, tls);
      // From now on no webhook is posted to this port under a loopback name or one of these names.
      core.own.ports.push(server.port);
      core.own.names.push(...ownNames(host));
      if (!isLoopback(host) && options.controlToken === undefined) {
        process.stderr.write(
          `sms-emulator: warning: listening on ${host}, reachable from other machines, without a control token: anyone who can reach the port can read, change and reset the emulator. Set --control-token (SMS_EMULATOR_CONTROL_TOKEN).\n`,
        );
      }
      const shownHost = isWildcardHost(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
      const origin = `${tls ? 'https' : 'http'}://${shownHost}:${server.port}`;
      const urls = { origin, live: origin, sandbox: `${origin}${environmentPaths.sandbox}`, port: server.port };
      listening = { server, urls };
      return urls;
    },
    get urls() {
      return listening?.urls;
    },
    get tls() {
      return tls && { cert: tls.cert, fingerprint: tls.fingerprint, selfSigned: tls.selfSigned };
    },
    async close() {
      if (options.reportOnExit !== undefined) await writeReport(options.reportOnExit, report());
      feed.close();
      core.clock.dispose();
      core.wallTimers.close();
      await core.webhooks.close();
      const server = listening?.server;
      listening = undefined;
      await server?.close();
    },
    receiveWebhooksLocally: (urlPrefix, receiver) => core.webhooks.receiveLocally(urlPrefix, receiver),
    on: (event, listener) => subscribe(core.events, core.offsetMinutes, event, listener),
    setOutcomeDecider: (decider) =>
      core.outcomes.use(
        'user',
        decider &&
          userLayer(decider, { message: (message) => messageView(message, core.offsetMinutes), account: accountView }),
      ),
    report: ((reportOptions: ReportOptions = {}) => {
      const data = report(reportOptions.account);
      return reportOptions.format === 'json' ? data : reportPage(data);
    }) as Emulator['report'],
    waitFor: (messageId) => waitFor(emulator, messageId),
  };
  return emulator;
}
