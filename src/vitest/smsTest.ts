/** createSmsTest: a vitest `test` whose `sms` fixture gives each test a fresh account, a wired webhook catcher and a typed client. */

import { randomUUID } from 'node:crypto';
import { type TestContext, TestRunner, afterAll, test as baseTest, inject } from 'vitest';
import { type SmsClient, createClient } from '../client/createClient.js';
import type { WebhookPayload } from '../client/types.js';
import { type Environment, defaultEnvironment } from '../domain/environment.js';
import { ApiError } from '../domain/errors.js';
import { type Emulator, createEmulator } from '../emulator.js';
import type { ClockView } from '../control/views.js';
import type { AccountInput, ClockCommand } from '../control/inputs.js';
import type { MessageView } from '../domain/messageView.js';
import type { Spend } from '../domain/spend.js';
import type { AccountScenario, AccountScenarioInput } from '../engine/scenario/schema.js';
import type { EmulatorOptions } from '../options.js';
import { type RemoteEmulator, connect, remoteWait } from '../testing/connect.js';
import { keepAliveHttp } from '../testing/keepAliveHttp.js';
import type { MessageWait } from '../control/waitFor.js';
import {
  type CatcherServer,
  type CaughtRequest,
  type WebhookCatcher,
  createCatcherServer,
} from '../testing/webhookCatcher.js';
import type { WebhookAnswer } from '../webhooks/transport.js';
import type { Scope } from '../state/store.js';
import { attachReport } from './attachReport.js';
import { type SmsBudget, SuiteSpending, checkedBudget, overBudget } from './creditBudgets.js';
import { BackgroundDeletions } from './backgroundDeletions.js';
import { type ProvidedEmulator } from './globalSetup.js';
import { type SmsSubject, registerSubject } from './matchers.js';
import { type SharedResource, sharedResource } from './sharedResource.js';
import { type SmsWorldActs, worldActs } from './worldActs.js';

/** The emulator of a test file: embedded (`createEmulator`), or a process started by `smsGlobalSetup` and reached with `connect`. */
export type SmsEmulator = Emulator | RemoteEmulator;

export interface SmsTestOptions {
  /**
   * Options of the emulator each test file embeds (e.g. `{ seed: 'ci' }`; it listens on a free port). Under
   * `smsGlobalSetup` the tests use the process it started: options given here must then be the same as the ones given
   * to `smsGlobalSetup` (share one object), and any other is refused, as it could not apply.
   */
  emulator?: EmulatorOptions;
  /**
   * Settings of every test's account (its `apiKey`, webhook URLs and clock are the fixture's): `signingSecret`,
   * `webhookSigningSecret`, balances, `scopes`. A test's `smsWorld` overrides them.
   */
  account?: Omit<AccountInput, 'apiKey' | 'webhookUrl' | 'sandboxWebhookUrl' | 'clock'>;
  /**
   * `'test'` (default): each test's account lives on a fresh test clock of its own, frozen until the test moves it, so
   * no other test's moves fire its messages and its moves fire no one else's. `'shared'`: the accounts live on the
   * emulator's main clock, which every test of the emulator moves (what the fixture did before test clocks).
   */
  clock?: 'test' | 'shared';
  /** Where each test clock starts (an ISO instant or a `Date`); default the main clock's now. Only with `clock: 'test'`. */
  startTime?: string | Date;
  /**
   * How an embedded emulator delivers to the worker's catcher: `'in-process'` (default) hands each post to the catcher
   * in this process, with no socket and every rule of a try (signing, re-attempts, timeout, the log); `'socket'` posts
   * over HTTP, for a test of the transport itself. The catcher's `url` takes real HTTP posts either way (from the app
   * under test, say); in process mode the emulator always posts over HTTP.
   */
  webhooks?: 'in-process' | 'socket';
  /**
   * Credit budgets (default none): `test`, the most each test's account may spend (a test that spent more fails,
   * naming its costliest messages); `suite`, the most this `createSmsTest`'s tests may spend together (its file, or the
   * describe block it is called in: more fails the suite at its end, naming the tests that spent most).
   * @example createSmsTest({ budget: { test: 3, suite: 40 } })
   */
  budget?: SmsBudget;
}

/**
 * One test's world, over the file's `account` and `startTime`: set it for the tests of a `describe` block with
 * `test.override({ smsWorld: { … } })`, or make a variant of `test` with `test.extend({ smsWorld: { … } })`. Every
 * variant shares the file's emulator; only the test's own world differs.
 *
 * @example
 * describe('with one credit left', () => {
 *   test.override({ smsWorld: { balance: 1, startTime: '2030-01-01T08:00:00Z' } });
 *   test('refuses the second reminder', async ({ sms }) => {});
 * });
 */
export interface SmsWorldOptions {
  /** Where the test clock starts (an ISO instant or a `Date`); only with `clock: 'test'`. */
  startTime?: string | Date;
  /** The live balance, and the sandbox one unless `sandboxBalance` is given. */
  balance?: number;
  sandboxBalance?: number;
  /** The environment `sms.client` and `sms.baseUrl` use (default `live`). */
  environment?: Environment;
  /** What the test's key may do; a request outside them is FORBIDDEN. */
  scopes?: Scope[];
  /** The test account's own scenario from its first request (YAML/JSON text or an object), as `sms.scenario.set` sets it. */
  scenario?: string | AccountScenarioInput;
  /** The secret the test's requests are signed with (default one drawn per test). */
  signingSecret?: string;
  /** Signs the account's webhooks (default a secret of the world's own; `null`: unsigned). */
  webhookSigningSecret?: string | null;
  /** The most credits the test's account may spend (default the file's `budget.test`, else none); more fails the test. */
  budget?: number;
}

/** An app's own webhook handler, fetch-style (a `Request` in, a `Response` out): Hono's `app.fetch`, a route handler. */
export type SmsWebhookHandler = (request: Request) => Response | Promise<Response>;

/** The clock of a test, with the members of `emulator.clock`: a test clock of its own by default. */
export interface SmsClock {
  /** The test clock's id, or null when the test runs on the main clock (`clock: 'shared'`). */
  readonly id: string | null;
  /** The clock's state: time, mode, queued tasks, recent incidents. */
  state(): ClockView | Promise<ClockView>;
  /** The clock's time as a `Date`, at once (see `sms.now()`). */
  now(): Date;
  /** Moves it (`advance`, `set`, `runUntilIdle`, `next`); answers once the webhooks it made due were tried. */
  move(command: ClockCommand): Promise<ClockView>;
  /** Moves it forward (`'15m'`, `'90s'`, ms), firing its due events in order. */
  advance(duration: string | number): Promise<ClockView>;
  /** Sets it to an ISO instant (never backwards). */
  set(instant: string): Promise<ClockView>;
  /** Fires its due events in order until none is queued or it reaches now + `limit` (default `'30d'`). */
  runUntilIdle(options?: { limit?: string | number }): Promise<ClockView>;
  /** Jumps to its next queued event's time and fires what is due then. */
  next(): Promise<ClockView>;
}

/** What each test receives as `sms`: its own account on the shared emulator, with a client and a catcher wired to it. */
export interface SmsContext extends SmsSubject, SmsWorldActs {
  /** The emulator this file's tests share: every answer may be awaited, in process or over HTTP. */
  readonly emulator: SmsEmulator;
  /**
   * The test's own account, created before the test and deleted after it, with the secret its webhooks are signed with
   * (`null`: unsigned) for the app's signature check.
   */
  readonly account: {
    readonly apiKey: string;
    readonly signingSecret: string;
    readonly webhookSigningSecret: string | null;
  };
  /** The environment the test's client and `baseUrl` use (`smsWorld.environment`, default `live`). */
  readonly environment: Environment;
  /** The base URL of that environment, to give the app under test. */
  readonly baseUrl: string;
  /** A typed API client signed in as the test's account (embedded: in process, without a socket; over HTTP in process mode). */
  readonly client: SmsClient;
  /** Receives the account's webhooks (live and sandbox), already set as its URL; it keeps a copy of each. */
  readonly catcher: WebhookCatcher;
  /**
   * From now on hands each of the account's webhooks to the app: its own handler (given a `Request` for `path`, default
   * `/webhooks`) or its URL. The catcher still keeps its copy (`sms.webhooks()`, `toHaveReceivedWebhook`), and the
   * emulator gets the app's answer (status and body), so its retries, its log and a wait's refusal check follow the app.
   * Attach it once the app exists: an app built from `sms.account` and `sms.baseUrl`.
   * @example sms.forwardTo(createApp({ apiKey: sms.account.apiKey, baseUrl: sms.baseUrl }).fetch, { path: '/sms/status' });
   */
  forwardTo(handlerOrUrl: SmsWebhookHandler | string | URL, options?: { path?: string }): void;
  /** The account's messages with legs and history, newest first (a promise over HTTP). */
  messages(): MessageView[] | Promise<MessageView[]>;
  /** The webhook payloads received so far, in arrival order. */
  webhooks(): WebhookPayload[];
  /** Waits for a message to reach a status, moving only the test's clock: `await sms.waitFor(id).toReach('delivered')`. */
  waitFor(messageId: string): MessageWait;
  /** The test's clock: its own test clock (frozen until the test moves it), or the main clock with `clock: 'shared'`. */
  readonly clock: SmsClock;
  /**
   * The test clock's time as a `Date`, synchronously in both modes (the clock is frozen and only the test moves it, so
   * the time each move answers is the time): give it to the app under test, `now: () => sms.now()`.
   */
  now(): Date;
  /**
   * The test account's own scenario (rules, replies, faults): asked before the emulator's, for this test's requests and
   * legs only, and gone with its account, like msw's `server.use` for one test.
   * @example await sms.scenario.set({ rules: [{ match: { recipient: '27831234567' }, outcome: 'undelivered' }] });
   */
  readonly scenario: SmsScenario;
}

/** `sms.scenario`: the test account's own scenario; every call may be awaited, in process or over HTTP. */
export interface SmsScenario {
  /** Gives the test's account its own scenario (YAML/JSON text or an object); a bad one is refused and changes nothing. */
  set(scenario: string | AccountScenarioInput): Promise<AccountScenario>;
  /** The test account's own scenario, defaults filled in (empty lists when none is set). */
  get(): Promise<AccountScenario>;
  /** Removes it: the emulator's scenario alone decides for the test's account again. */
  clear(): Promise<void>;
}

/**
 * A vitest `test` with the `sms` fixture (and the file-wide `emulator`). Tests in a file may run
 * concurrently (`test.concurrent`): each has its own account on its own test clock, so they never see each
 * other's messages, balances or webhooks, and never move each other's time.
 *
 * @example
 * const test = createSmsTest();
 * test.concurrent('sends a reminder', async ({ sms, expect }) => {
 *   const sent = await sms.client.send({ recipient: '27831234567', message: 'See you at 10' });
 *   await sms.waitFor(sent.id).toReach('delivered');
 *   expect(sms).toHaveReceivedWebhook({ id: sent.id, status: 'delivered' });
 * });
 */
export function createSmsTest(options: SmsTestOptions = {}): SmsTestAPI {
  checkedBudget(options.budget?.test, 'createSmsTest budget.test');
  const suiteBudget = checkedBudget(options.budget?.suite, 'createSmsTest budget.suite');
  const spending = suiteBudget === undefined ? undefined : new SuiteSpending(suiteBudget);
  // Registered where createSmsTest is called: the file's tests, or the describe block's.
  if (spending !== undefined) afterAll(() => spending.check());
  const emulators: Emulators = sharedResource(
    (catchers: CatcherServer) => openEmulator(options, catchers),
    (held: HeldEmulator) => held.close(),
  );
  const run: RunTest = ({ emulator, smsCatchers, smsWorld, task, onTestFinished }, use) =>
    runTest(emulator, smsCatchers, options, spending, smsWorld, { task, onTestFinished }, use);
  const { suite } = TestRunner.getCurrentSuite();
  return suite === undefined || suite.file === suite ? fileTest(emulators, run) : blockTest(emulators, run);
}

/** A file's emulators: one per `createSmsTest`, shared by its variants. */
type Emulators = SharedResource<HeldEmulator, [CatcherServer]>;

/** What the `sms` fixture runs for each test. */
type RunTest = (
  fixtures: { emulator: SmsEmulator; smsCatchers: CatcherServer; smsWorld: SmsWorldOptions } & TestHooks,
  use: (sms: SmsContext) => Promise<void>,
) => Promise<void>;

/** `createSmsTest` at the top of a file: the emulator is file-scoped, the catcher server worker-scoped. */
function fileTest(emulators: Emulators, run: RunTest) {
  return baseTest.extend<{
    $test: { sms: SmsContext; smsWorld: SmsWorldOptions };
    $file: { emulator: SmsEmulator };
    $worker: { smsCatchers: CatcherServer };
  }>({
    smsCatchers: [
      // One receiver per worker, routed by account: a test costs a route, not a server.
      // eslint-disable-next-line no-empty-pattern -- vitest reads the fixture's dependencies from this pattern
      async ({}, use) => {
        await use(await catcherServers.acquire());
        await catcherServers.release();
      },
      { scope: 'worker' },
    ],
    emulator: [
      async ({ smsCatchers }, use) => {
        await use((await emulators.acquire(smsCatchers)).emulator);
        await emulators.release();
      },
      { scope: 'file' },
    ],
    smsWorld: {},
    sms: ({ emulator, smsCatchers, smsWorld, task, onTestFinished }, use) =>
      run({ emulator, smsCatchers, smsWorld, task, onTestFinished }, use),
  });
}

/** The `test` `createSmsTest` answers: vitest's own, with the `sms`, `smsWorld` and file-wide `emulator` fixtures. */
export type SmsTestAPI = ReturnType<typeof fileTest>;

/**
 * `createSmsTest` inside a describe block, where vitest allows test-scoped fixtures only: the block holds the emulator
 * and the catcher server from its first test to its end, the same as a file's.
 */
function blockTest(emulators: Emulators, run: RunTest): SmsTestAPI {
  let held: Promise<{ emulator: SmsEmulator; catchers: CatcherServer }> | undefined;
  const hold = () =>
    (held ??= catcherServers.acquire().then(async (catchers) => ({
      catchers,
      emulator: (await emulators.acquire(catchers)).emulator,
    })));
  afterAll(async () => {
    if (held === undefined) return;
    await held;
    await emulators.release();
    await catcherServers.release();
  });
  const test = baseTest.extend<{
    sms: SmsContext;
    smsWorld: SmsWorldOptions;
    emulator: SmsEmulator;
    smsCatchers: CatcherServer;
  }>({
    // eslint-disable-next-line no-empty-pattern -- vitest reads the fixture's dependencies from this pattern
    smsCatchers: async ({}, use) => use((await hold()).catchers),
    // eslint-disable-next-line no-empty-pattern -- vitest reads the fixture's dependencies from this pattern
    emulator: async ({}, use) => use((await hold()).emulator),
    smsWorld: {},
    sms: ({ emulator, smsCatchers, smsWorld, task, onTestFinished }, use) =>
      run({ emulator, smsCatchers, smsWorld, task, onTestFinished }, use),
  });
  // The same fixtures, test-scoped: what vitest's types call scopes only decides which hooks may read them.
  return test as unknown as SmsTestAPI;
}

/** The test and its hook for after its fixtures were cleaned up, as a fixture sees them. */
type TestHooks = Pick<TestContext, 'task' | 'onTestFinished'>;

/**
 * The worker's catcher server, shared by every variant of every `createSmsTest` of the module: on loopback, or where the
 * globalSetup's emulator can reach it (`webhookHost`).
 */
const catcherServers = sharedResource(
  () => createCatcherServer({ host: inject('smsEmulator')?.webhookHost }),
  (server: CatcherServer) => server.close(),
);

/** A file's emulator as the fixture holds it, with what closing it takes. */
interface HeldEmulator {
  emulator: SmsEmulator;
  close(): Promise<void>;
}

/** The file's emulator: the process `smsGlobalSetup` started, reached over HTTP, or one embedded here. */
async function openEmulator(options: SmsTestOptions, catchers: CatcherServer): Promise<HeldEmulator> {
  const provided = inject('smsEmulator');
  if (provided !== undefined) {
    refuseOtherOptions(options.emulator, provided);
    const remote = connect(provided.origin, { controlToken: provided.controlToken ?? undefined });
    const deletions = new BackgroundDeletions();
    backgroundDeletions.set(remote, deletions);
    return { emulator: remote, close: () => deletions.ended() };
  }
  const emulator = createEmulator(options.emulator);
  await emulator.listen({ port: 0 });
  // Posts to the worker's catcher skip the loopback round trip: most of what a fixture test cost beside msw.
  if (options.webhooks !== 'socket') emulator.receiveWebhooksLocally(`${catchers.origin}/`, catchers.receive);
  return { emulator, close: () => emulator.close() };
}

/** One test: its world made, the `sms` it is given, and after it its timeline (when it failed) and its world deleted. */
async function runTest(
  emulator: SmsEmulator,
  smsCatchers: CatcherServer,
  options: SmsTestOptions,
  suite: SuiteSpending | undefined,
  world: SmsWorldOptions,
  { task, onTestFinished }: TestHooks,
  use: (sms: SmsContext) => Promise<void>,
): Promise<void> {
  const apiKey = `pk_test_${randomUUID()}`;
  const { startTime, environment = defaultEnvironment, scenario, budget: worldBudget, ...own } = world;
  const budget = checkedBudget(worldBudget, 'smsWorld.budget') ?? options.budget?.test;
  const catcher = smsCatchers.catcher(`/webhooks/${apiKey}`);
  const settings: WorldAccount = {
    ...options.account,
    ...own,
    apiKey,
    signingSecret: own.signingSecret ?? options.account?.signingSecret ?? `sk_${apiKey.slice(3)}`,
    webhookUrl: catcher.url,
    sandboxWebhookUrl: catcher.url,
  };
  const given = { startTime: startTime ?? options.startTime, scenario };
  const { clock, webhookSigningSecret } =
    options.clock === 'shared'
      ? await sharedWorld(emulator, given, settings)
      : await testWorld(emulator, given, task.name, settings);
  const account = { apiKey, signingSecret: settings.signingSecret as string, webhookSigningSecret };
  const urls = emulator.urls as { origin: string; live: string; sandbox: string };
  /** What the app answered each post the catcher handed it (`forwardTo`), for `toHaveReceivedWebhook`. */
  const appAnswers = new WeakMap<CaughtRequest, WebhookAnswer>();
  const sms: SmsContext = {
    emulator,
    account,
    environment,
    baseUrl: urls[environment],
    // Embedded, the test's own client reaches the emulator in process (no socket), over HTTP through the worker's
    // keep-alive pool; the app under test uses `baseUrl`.
    client: createClient({
      baseUrl: urls.origin,
      apiKey,
      signingSecret: account.signingSecret,
      environment,
      fetch: 'fetch' in emulator ? emulator.fetch : keepAliveHttp(urls.origin).fetch,
    }),
    catcher,
    forwardTo: (target, forwardOptions = {}) =>
      catcher.respondWith(forwarder(target, forwardOptions.path, (request, answer) => appAnswers.set(request, answer))),
    appAnswer: (request) => appAnswers.get(request),
    messages: () => {
      const page = emulator.messages.list({ account: apiKey, limit: 1000 });
      return page instanceof Promise ? page.then((answer) => answer.items) : page.items;
    },
    webhooks: () => catcher.received.map((request) => request.body as WebhookPayload),
    waitFor: (messageId) => clock.wait(messageId),
    clock,
    now: () => clock.now(),
    scenario: {
      set: async (next) => emulator.accounts.setScenario(apiKey, next),
      get: async () => emulator.accounts.getScenario(apiKey),
      clear: async () => emulator.accounts.clearScenario(apiKey),
    },
    ...worldActs(emulator, apiKey, environment),
  };
  registerSubject(task, sms);
  let overspent: string | undefined;
  // Failed once its fixtures are cleaned up: an error thrown by a fixture's own clean-up is reported twice by vitest.
  onTestFinished(() => {
    if (overspent !== undefined) throw new Error(overspent);
  });
  await use(sms);
  // The test has ended: what it spent is read while its account still exists, only when a budget asks.
  const spend = budget === undefined && suite === undefined ? undefined : await spendOf(emulator, apiKey);
  if (spend !== undefined) suite?.add(task.fullTestName, spend);
  if (spend !== undefined && budget !== undefined && spend.credits > budget)
    overspent = `sms-emulator: ${overBudget('the test', budget, spend)}`;
  // A failed test gets the timeline while its account still exists.
  if (task.result?.state === 'fail' || overspent !== undefined) await attachReport(emulator, apiKey, task);
  // Deleting the test clock deletes the account on it too.
  const deletion = ignoreNotFound(
    clock.id === null ? emulator.accounts.delete(apiKey) : emulator.clocks.delete(clock.id),
  );
  // An account on the shared clock goes before the next test starts: the next test may move that clock.
  const background = clock.id === null ? undefined : backgroundDeletions.get(emulator);
  if (background === undefined) await deletion;
  else background.add(deletion);
  await catcher.close();
}

/** What the test's account spent; undefined when the test deleted its account itself (or reset the emulator). */
async function spendOf(emulator: SmsEmulator, apiKey: string): Promise<Spend | undefined> {
  try {
    return await emulator.accounts.spend(apiKey);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'CONTROL_NOT_FOUND') return undefined;
    throw error;
  }
}

/** Headers a hop adds or that describe the connection: a forwarded post gets its own. */
const hopHeaders = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/**
 * The catcher's answer when it forwards: each post, as the emulator sent it (headers and body bytes), to the app's
 * handler or URL; the app's status and body go back to the emulator, and to `record`. A handler that throws (or a URL
 * that cannot be reached) answers 500 saying why.
 */
function forwarder(
  target: SmsWebhookHandler | string | URL,
  path = '/webhooks',
  record: (request: CaughtRequest, answer: WebhookAnswer) => void,
): (request: CaughtRequest) => Promise<WebhookAnswer> {
  return async (request) => {
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !hopHeaders.has(name)));
    const init = { method: 'POST', headers, body: request.rawBody };
    let answer: WebhookAnswer;
    try {
      const response =
        typeof target === 'function'
          ? await target(new Request(new URL(path, 'http://localhost'), init))
          : await fetch(target, init);
      answer = { status: response.status, body: await response.text() };
    } catch (error) {
      answer = { status: 500, body: `the app's handler failed: ${(error as Error).message}` };
    }
    record(request, answer);
    return answer;
  };
}

/** Under `smsGlobalSetup`, emulator options other than the process's own could not apply: refused, never ignored. */
function refuseOtherOptions(given: EmulatorOptions | undefined, provided: ProvidedEmulator): void {
  const differing = Object.entries(given ?? {}).filter(
    ([name, value]) =>
      value !== undefined &&
      JSON.stringify(value) !== JSON.stringify((provided.options as Record<string, unknown>)[name]),
  );
  if (differing.length === 0) return;
  const list = differing.map(([name, value]) => `${name}: ${JSON.stringify(value)}`).join(', ');
  throw new Error(
    `sms-emulator: createSmsTest({ emulator: { ${list} } }) cannot apply: smsGlobalSetup started the emulator process every file uses, with ${JSON.stringify(
      provided.options,
    )}. Give emulator options to smsGlobalSetup only, or the same object to both.`,
  );
}

/** Over HTTP, a file's test clocks are deleted in the background (see BackgroundDeletions). */
const backgroundDeletions = new WeakMap<SmsEmulator, BackgroundDeletions>();

/** A test may have deleted its account or clock itself (or reset the emulator): that is no failure of the test. */
async function ignoreNotFound(deletion: unknown): Promise<void> {
  try {
    await deletion;
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'CONTROL_NOT_FOUND')) throw error;
  }
}

/** A test's clock as the fixture holds it: what the test sees, and how its `waitFor` waits. */
type HeldClock = SmsClock & { wait(messageId: string): MessageWait };

/** The test account's settings: its key and secret, the catcher as its webhook URLs, the file's account options. */
type WorldAccount = Omit<AccountInput, 'clock'> & { apiKey: string };

/** What the fixture gives a test's world besides its account: where its clock starts, its account's own scenario. */
interface WorldStart {
  startTime?: string | Date;
  scenario?: string | AccountScenarioInput;
}

/** A test's world as made: its clock, and the secret its account's webhooks are signed with. */
interface MadeWorld {
  clock: HeldClock;
  webhookSigningSecret: string | null;
}

/**
 * A fresh test clock with the test's account on it, made in one call (one round trip over HTTP). Its time is the one
 * the last move or wait answered: nothing else moves a test clock, so `now()` needs no request, over HTTP either.
 */
async function testWorld(
  emulator: SmsEmulator,
  start: WorldStart,
  name: string,
  account: WorldAccount,
): Promise<MadeWorld> {
  const startTime = start.startTime instanceof Date ? start.startTime.toISOString() : start.startTime;
  // A clock name is never empty; a test named '' (vitest allows it) gets an unnamed clock.
  const created = await emulator.worlds.create({
    ...(name === '' ? {} : { name: name.slice(0, 200) }),
    ...(startTime === undefined ? {} : { startTime }),
    account,
    ...(start.scenario === undefined ? {} : { scenario: start.scenario }),
  });
  const { id } = created.clock;
  let now = created.clock.now;
  const track = async <T extends { now: number }>(moved: T | Promise<T>): Promise<T> => {
    const view = await moved;
    now = Math.max(now, view.now);
    return view;
  };
  const { clocks } = emulator;
  // Embedded, the clock's own answers are at hand; over HTTP the time is the one tracked, and a wait is one call.
  const local = 'fetch' in emulator ? emulator : undefined;
  const clock: HeldClock = {
    id,
    state: () => (local ? local.clocks.get(id) : track(clocks.get(id))),
    now: () => (local ? local.clocks.now(id) : new Date(now)),
    move: (command) => track(clocks.move(id, command)),
    advance: (duration) => track(clocks.advance(id, duration)),
    set: (instant) => track(clocks.set(id, instant)),
    runUntilIdle: (runOptions) => track(clocks.runUntilIdle(id, runOptions)),
    next: () => track(clocks.next(id)),
    wait: (messageId) => (local ? local.waitFor(messageId) : remoteWait(emulator, messageId, (moved) => track(moved))),
  };
  return { clock, webhookSigningSecret: created.account.webhookSigningSecret };
}

/** The main clock, as `clock: 'shared'` gives it, with the test's account on it: other tests move it too, so its time is read, never tracked. */
async function sharedWorld(emulator: SmsEmulator, start: WorldStart, account: WorldAccount): Promise<MadeWorld> {
  if (start.startTime !== undefined)
    throw new Error(
      "sms-emulator: createSmsTest: startTime applies to test clocks; with clock: 'shared' the main clock's time is the emulator's.",
    );
  const created = await emulator.accounts.create(account);
  if (start.scenario !== undefined) await emulator.accounts.setScenario(account.apiKey, start.scenario);
  const { clock } = emulator;
  const held: HeldClock = {
    id: null,
    state: () => clock.state(),
    now: () => {
      const now = clock.now();
      if (now instanceof Promise)
        throw new Error(
          "sms-emulator: sms.now() cannot answer at once with clock: 'shared' over HTTP (other tests move the main clock): await sms.clock.state() instead.",
        );
      return now;
    },
    move: (command) => clock.move(command),
    advance: (duration) => clock.advance(duration),
    set: (instant) => clock.set(instant),
    runUntilIdle: (runOptions) => clock.runUntilIdle(runOptions),
    next: () => clock.next(),
    wait: (messageId) => emulator.waitFor(messageId),
  };
  return { clock: held, webhookSigningSecret: created.webhookSigningSecret };
}
