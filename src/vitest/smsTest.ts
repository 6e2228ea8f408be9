/** createSmsTest: a vitest `test` whose `sms` fixture gives each test a fresh account, a wired webhook catcher and a typed client. */

import { randomUUID } from 'node:crypto';
import { test as baseTest, inject } from 'vitest';
import { type SmsClient, createClient } from '../client/createClient.js';
import type { WebhookPayload } from '../client/types.js';
import { ApiError } from '../domain/errors.js';
import { type Emulator, createEmulator } from '../emulator.js';
import type { ClockView } from '../control/views.js';
import type { AccountInput, ClockCommand } from '../control/inputs.js';
import type { MessageView } from '../domain/messageView.js';
import type { AccountScenario, AccountScenarioInput } from '../engine/scenario/schema.js';
import type { EmulatorOptions } from '../options.js';
import { type RemoteEmulator, connect, remoteWait } from '../testing/connect.js';
import { keepAliveHttp } from '../testing/keepAliveHttp.js';
import type { MessageWait } from '../control/waitFor.js';
import { type CatcherServer, type WebhookCatcher, createCatcherServer } from '../testing/webhookCatcher.js';
import { attachReport } from './attachReport.js';
import { BackgroundDeletions } from './backgroundDeletions.js';
import { type ProvidedEmulator } from './globalSetup.js';
import { type SmsSubject, registerSubject } from './matchers.js';

/** The emulator of a test file: embedded (`createEmulator`), or a process started by `smsGlobalSetup` and reached with `connect`. */
export type SmsEmulator = Emulator | RemoteEmulator;

export interface SmsTestOptions {
  /**
   * Options of the emulator each test file embeds (e.g. `{ seed: 'ci' }`; it listens on a free port). Under
   * `smsGlobalSetup` the tests use the process it started: options given here must then be the same as the ones given
   * to `smsGlobalSetup` (share one object), and any other is refused, as it could not apply.
   */
  emulator?: EmulatorOptions;
  /** Settings of every test's account (its `apiKey`, webhook URLs and clock are the fixture's). */
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
}

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
export interface SmsContext extends SmsSubject {
  /** The emulator this file's tests share: every answer may be awaited, in process or over HTTP. */
  readonly emulator: SmsEmulator;
  /** The test's own account, created before the test and deleted after it. */
  readonly account: { readonly apiKey: string; readonly signingSecret: string };
  /** The live base URL to give the app under test. */
  readonly baseUrl: string;
  /** A typed API client signed in as the test's account (embedded: in process, without a socket; over HTTP in process mode). */
  readonly client: SmsClient;
  /** Receives the account's webhooks (live and sandbox), already set as its URL. */
  readonly catcher: WebhookCatcher;
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
export function createSmsTest(options: SmsTestOptions = {}) {
  return baseTest.extend<{
    $test: { sms: SmsContext };
    $file: { emulator: SmsEmulator };
    $worker: { smsCatchers: CatcherServer };
  }>({
    smsCatchers: [
      // One receiver per worker, routed by account: a test costs a route, not a server.
      // eslint-disable-next-line no-empty-pattern -- vitest reads the fixture's dependencies from this pattern
      async ({}, use) => {
        const server = await createCatcherServer();
        await use(server);
        await server.close();
      },
      { scope: 'worker' },
    ],
    emulator: [
      async ({ smsCatchers }, use) => {
        const provided = inject('smsEmulator');
        if (provided !== undefined) {
          refuseOtherOptions(options.emulator, provided);
          const remote = connect(provided.origin, { controlToken: provided.controlToken ?? undefined });
          const deletions = new BackgroundDeletions();
          backgroundDeletions.set(remote, deletions);
          await use(remote);
          await deletions.ended();
          return;
        }
        const emulator = createEmulator(options.emulator);
        await emulator.listen({ port: 0 });
        // Posts to the worker's catcher skip the loopback round trip: most of what a fixture test cost beside msw.
        if (options.webhooks !== 'socket')
          emulator.receiveWebhooksLocally(`${smsCatchers.origin}/`, smsCatchers.receive);
        await use(emulator);
        await emulator.close();
      },
      { scope: 'file' },
    ],
    sms: async ({ emulator, smsCatchers, task }, use) => {
      const apiKey = `pk_test_${randomUUID()}`;
      const catcher = smsCatchers.catcher(`/webhooks/${apiKey}`);
      const account = { apiKey, signingSecret: `sk_${apiKey.slice(3)}` };
      const settings = { ...options.account, ...account, webhookUrl: catcher.url, sandboxWebhookUrl: catcher.url };
      const clock =
        options.clock === 'shared'
          ? await sharedWorld(emulator, options, settings)
          : await testWorld(emulator, options, task.name, settings);
      const baseUrl = (emulator.urls as { live: string }).live;
      const sms: SmsContext = {
        emulator,
        account,
        baseUrl,
        // Embedded, the test's own client reaches the emulator in process (no socket), over HTTP through the worker's
        // keep-alive pool; the app under test uses `baseUrl`.
        client: createClient({
          baseUrl,
          ...account,
          fetch: 'fetch' in emulator ? emulator.fetch : keepAliveHttp(emulator.urls.origin).fetch,
        }),
        catcher,
        messages: () => {
          const page = emulator.messages.list({ account: apiKey, limit: 1000 });
          return page instanceof Promise ? page.then((answer) => answer.items) : page.items;
        },
        webhooks: () => catcher.received.map((request) => request.body as WebhookPayload),
        waitFor: (messageId) => clock.wait(messageId),
        clock,
        now: () => clock.now(),
        scenario: {
          set: async (scenario) => emulator.accounts.setScenario(apiKey, scenario),
          get: async () => emulator.accounts.getScenario(apiKey),
          clear: async () => emulator.accounts.clearScenario(apiKey),
        },
      };
      registerSubject(task, sms);
      await use(sms);
      // The test has ended: a failed one gets the timeline while its account still exists.
      if (task.result?.state === 'fail') await attachReport(emulator, apiKey, task);
      // Deleting the test clock deletes the account on it too.
      const deletion = ignoreNotFound(
        clock.id === null ? emulator.accounts.delete(apiKey) : emulator.clocks.delete(clock.id),
      );
      // An account on the shared clock goes before the next test starts: the next test may move that clock.
      const background = clock.id === null ? undefined : backgroundDeletions.get(emulator);
      if (background === undefined) await deletion;
      else background.add(deletion);
      await catcher.close();
    },
  });
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

/**
 * A fresh test clock with the test's account on it, made in one call (one round trip over HTTP). Its time is the one
 * the last move or wait answered: nothing else moves a test clock, so `now()` needs no request, over HTTP either.
 */
async function testWorld(
  emulator: SmsEmulator,
  options: SmsTestOptions,
  name: string,
  account: WorldAccount,
): Promise<HeldClock> {
  const startTime = options.startTime instanceof Date ? options.startTime.toISOString() : options.startTime;
  // A clock name is never empty; a test named '' (vitest allows it) gets an unnamed clock.
  const created = await emulator.worlds.create({
    ...(name === '' ? {} : { name: name.slice(0, 200) }),
    ...(startTime === undefined ? {} : { startTime }),
    account,
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
  return {
    id,
    state: () => (local ? local.clocks.get(id) : track(clocks.get(id))),
    now: () => (local ? local.clocks.now(id) : new Date(now)),
    move: (command) => track(clocks.move(id, command)),
    advance: (duration) => track(clocks.advance(id, duration)),
    set: (instant) => track(clocks.set(id, instant)),
    runUntilIdle: (runOptions) => track(clocks.runUntilIdle(id, runOptions)),
    next: () => track(clocks.next(id)),
    wait: (messageId) => (local ? local.waitFor(messageId) : remoteWait(emulator, messageId, (clock) => track(clock))),
  };
}

/** The main clock, as `clock: 'shared'` gives it, with the test's account on it: other tests move it too, so its time is read, never tracked. */
async function sharedWorld(emulator: SmsEmulator, options: SmsTestOptions, account: WorldAccount): Promise<HeldClock> {
  if (options.startTime !== undefined)
    throw new Error(
      "sms-emulator: createSmsTest: startTime applies to test clocks; with clock: 'shared' the main clock's time is the emulator's.",
    );
  await emulator.accounts.create(account);
  const { clock } = emulator;
  return {
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
}
