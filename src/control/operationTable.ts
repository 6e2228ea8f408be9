/**
 * The one table of control operations: each declared once (method, path, how the handle's arguments travel, input,
 * summary, handler). The HTTP routes, their Allow headers, both handles, the docs table and the OpenAPI document come
 * from it; operations.ts holds the machinery that reads it (types, the list of ids, and running one).
 */

import { z } from 'zod';
import {
  accountInput,
  accountPatch,
  clockCommand,
  forceStatusInput,
  messageFilter,
  optOutTarget,
  replyInput,
  accountScope,
  testClockInput,
  waitInput,
  webhookChaosInput,
  webhookFilter,
  worldInput,
} from '../engine/controlInput.js';
import { journalFilter } from '../journal/requestJournal.js';
import type { WebhookChaos } from '../webhooks/dispatcher.js';
import { paginate } from '../domain/list.js';
import { bundledScenarioText, bundledScenarios } from '../engine/scenario/files.js';
import type { ChaosView, OptOutView } from './handle.js';
import type { OperationDeps, OperationTable } from './operations.js';

/** Each input as `run` receives it: parsed by runOperation against the operation's `input`, defaults filled in. */
type ClockMove = z.output<typeof clockCommand>;
type TestClockSpec = z.output<typeof testClockInput>;
type AccountCreation = z.output<typeof accountInput>;
type AccountChanges = z.output<typeof accountPatch>;
type MessageQuery = z.output<typeof messageFilter>;
type ForcedStatus = z.output<typeof forceStatusInput>;
const inboundReply = replyInput.omit({ messageId: true });
type InboundReply = z.output<typeof inboundReply>;
type WebhookQuery = z.output<typeof webhookFilter>;
type ChaosSettings = z.output<typeof webhookChaosInput>;
type OptOutQuery = z.output<typeof optOutTarget>;
type JournalQuery = z.output<typeof journalFilter>;
type AccountScope = z.output<typeof accountScope>;
type WorldSpec = z.output<typeof worldInput>;
type WaitSpec = z.output<typeof waitInput>;
/** A list's filter with the page it asks for (`pages: true`). */
type Paged<T = object> = T & { page: number; limit: number };

const noFilter = z.strictObject({});

function chaosView({ delayMs, ...rates }: WebhookChaos): ChaosView {
  return { ...rates, delay: delayMs };
}

function setOptOut(
  { control, defaultAccount }: OperationDeps,
  phone: string,
  optedOut: boolean,
  target: OptOutQuery,
): OptOutView {
  const { account: apiKey = defaultAccount, environment = 'live' } = target;
  control.setOptOut(phone, optedOut, apiKey, environment);
  return { account: apiKey, environment, number: phone, optedOut };
}

const key = { in: 'path', name: 'key' } as const;
const id = { in: 'path', name: 'id' } as const;
const number = { in: 'path', name: 'number' } as const;
const scenarioName = { in: 'path', name: 'name' } as const;
const query = { in: 'query' } as const;
const body = { in: 'body' } as const;

export const operations = {
  health: {
    method: 'GET',
    path: '/health',
    answer: 'Status',
    args: [],
    open: true,
    summary: '`{"status": "ok"}` once the emulator answers (open even with a control token).',
    run: () => ({ status: 'ok' as const }),
  },
  clock: {
    state: {
      method: 'GET',
      path: '/clock',
      answer: 'Clock',
      args: [],
      summary:
        'The clock: `{now, time, mode, speed, pendingTasks, incidents}` (`incidents`: recent tasks that failed or were skipped, `{time, task, outcome, reason}`).',
      run: ({ control }) => control.clockState(),
    },
    move: {
      method: 'POST',
      path: '/clock',
      answer: 'Clock',
      args: [body],
      input: clockCommand,
      inputName: 'clock command',
      settles: (control) => control.mainClock(),
      summary:
        'Moves the clock: `{"advance": "15m"}`, `{"set": "2026-11-22T09:00:00+02:00"}`, `{"mode": "manual"}`, `{"speed": 60}` (combinable; mode/speed, then set, then advance); or `{"runUntilIdle": true, "limit": "30d"}` or `{"next": true}` (the answer adds `run: {fired, idle, stoppedAt?}`). Due events fire in time order; answers after their webhooks were tried.',
      run: ({ control }, command: ClockMove) => control.moveClock(command),
    },
    now: {
      via: 'clock.state',
      summary: 'The current time as a Date.',
      map: () => [],
      answer: (clock: { now: number }) => new Date(clock.now),
    },
    advance: {
      via: 'clock.move',
      summary: 'Moves the clock forward by a duration.',
      map: (duration) => [{ advance: duration }],
    },
    set: { via: 'clock.move', summary: 'Sets the clock to an instant.', map: (instant) => [{ set: instant }] },
    configure: { via: 'clock.move', summary: 'Changes mode and speed.', map: (settings) => [settings] },
    runUntilIdle: {
      via: 'clock.move',
      summary: 'Runs until nothing is queued (or a limit).',
      map: (options = {}) => [{ runUntilIdle: true, ...options }],
    },
    next: { via: 'clock.move', summary: 'Runs to the next queued event.', map: () => [{ next: true }] },
  },
  clocks: {
    list: {
      method: 'GET',
      path: '/clocks',
      answer: 'TestClock',
      args: [query],
      input: noFilter,
      inputName: 'clock filter',
      pages: true,
      summary:
        'Every test clock, in creation order: `{id, name, now, time, mode, speed, pendingTasks, incidents, accounts}` (`accounts`: the API keys on it).',
      run: ({ control }, { page, limit }: Paged) => paginate(control.listClocks(), page, limit),
    },
    get: {
      method: 'GET',
      path: '/clocks/{id}',
      answer: 'TestClock',
      args: [id],
      summary: 'One test clock.',
      run: ({ control }, clockId) => control.testClock(clockId),
    },
    create: {
      method: 'POST',
      path: '/clocks',
      answer: 'TestClock',
      args: [body],
      input: testClockInput,
      inputName: 'clock',
      status: 201,
      summary:
        'Creates a test clock, frozen until moved: `{"startTime"?: "2026-11-22T09:00:00Z", "name"?: "booking test"}` (default start: the main clock\'s now). Accounts created with `"clock": id` live on it.',
      run: ({ control }, clock: TestClockSpec) => control.createClock(clock),
    },
    move: {
      method: 'POST',
      path: '/clocks/{id}',
      answer: 'TestClock',
      args: [id, body],
      input: clockCommand,
      inputName: 'clock command',
      settles: (control, clockId) => control.clockById(clockId),
      summary:
        'Moves a test clock like `POST /clock` (`advance`, `set`, `runUntilIdle` with `limit`, `next`; no `mode` or `speed`: a test clock is always manual); only its own tasks fire; answers after their webhooks were tried.',
      run: ({ control }, clockId, command: ClockMove) => control.moveTestClock(clockId, command),
    },
    delete: {
      method: 'DELETE',
      path: '/clocks/{id}',
      args: [id],
      status: 204,
      summary:
        'Deletes a test clock and every account on it, with their messages, journal entries and webhook log entries (204, no body).',
      run: ({ control, journal }, clockId) => {
        for (const apiKey of control.deleteClock(clockId)) journal.clear(apiKey);
      },
    },
    now: {
      via: 'clocks.get',
      summary: "A test clock's time as a Date.",
      map: (clockId) => [clockId],
      answer: (clock: { now: number }) => new Date(clock.now),
    },
    advance: {
      via: 'clocks.move',
      summary: 'Moves a test clock forward by a duration.',
      map: (clockId, duration) => [clockId, { advance: duration }],
    },
    set: {
      via: 'clocks.move',
      summary: 'Sets a test clock to an instant.',
      map: (clockId, instant) => [clockId, { set: instant }],
    },
    runUntilIdle: {
      via: 'clocks.move',
      summary: 'Runs a test clock until none of its tasks is queued (or a limit).',
      map: (clockId, options = {}) => [clockId, { runUntilIdle: true, ...options }],
    },
    next: {
      via: 'clocks.move',
      summary: 'Runs a test clock to its next queued event.',
      map: (clockId) => [clockId, { next: true }],
    },
  },
  worlds: {
    create: {
      method: 'POST',
      path: '/worlds',
      answer: 'World',
      args: [body],
      input: worldInput,
      inputName: 'world',
      status: 201,
      summary:
        'A test\'s world in one call: `{"name"?, "startTime"?, "account"?: {…account fields, apiKey drawn when absent}, "scenario"?: {…}}` makes a test clock, an account on it and its own scenario, all or nothing; answers `{clock, account}`. `DELETE /clocks/{id}` deletes it all.',
      run: ({ control }, world: WorldSpec) => control.createWorld(world),
    },
  },
  accounts: {
    list: {
      method: 'GET',
      path: '/accounts',
      answer: 'Account',
      args: [query],
      input: noFilter,
      inputName: 'account filter',
      pages: true,
      summary: 'Every account with balances, webhook URLs and opt-outs per environment, in creation order.',
      run: ({ control }, { page, limit }: Paged) => paginate(control.listAccounts(), page, limit),
    },
    get: {
      method: 'GET',
      path: '/accounts/{key}',
      answer: 'Account',
      args: [key],
      summary: 'One account.',
      run: ({ control }, apiKey) => control.account(apiKey),
    },
    create: {
      method: 'POST',
      path: '/accounts',
      answer: 'Account',
      args: [body],
      input: accountInput,
      inputName: 'account',
      status: 201,
      summary:
        'Creates an account: `apiKey` (pk_…), `signingSecret`, `balance`, `sandboxBalance`, `webhookUrl`, `sandboxWebhookUrl`, `scopes`, `clock` (a test clock id: the account lives on it). An existing key is `CONTROL_CONFLICT`.',
      run: ({ control }, account: AccountCreation) => control.createAccount(account),
    },
    update: {
      method: 'PATCH',
      path: '/accounts/{key}',
      answer: 'Account',
      args: [key, body],
      input: accountPatch,
      inputName: 'account change',
      summary:
        'Changes an account: `{"live": {"balance": 5, "addBalance": 10, "webhookUrl": "…"}, "sandbox": {…}, "signingSecret": "…", "scopes": […]}`; a balance below 0 is refused.',
      run: ({ control }, apiKey, patch: AccountChanges) => control.updateAccount(apiKey, patch),
    },
    delete: {
      method: 'DELETE',
      path: '/accounts/{key}',
      args: [key],
      status: 204,
      summary: 'Removes the account with its messages, journal entries and webhook log entries (204, no body).',
      run: ({ control, journal }, apiKey) => {
        control.deleteAccount(apiKey);
        journal.clear(apiKey);
      },
    },
    getScenario: {
      method: 'GET',
      path: '/accounts/{key}/scenario',
      answer: 'AccountScenario',
      args: [key],
      summary: "The account's own scenario (rules, replies, faults), defaults filled in; empty lists when it has none.",
      run: ({ control }, apiKey) => control.accountScenario(apiKey),
    },
    setScenario: {
      method: 'PUT',
      path: '/accounts/{key}/scenario',
      answer: 'AccountScenario',
      args: [key, { in: 'text' }],
      summary:
        "Gives the account its own scenario (YAML or JSON body: `rules`, `replies`, `faults`), consulted before the emulator's for its requests and legs only; it replaces an earlier one and is gone when cleared, or the account is reset or deleted. A bad one is refused and changes nothing.",
      run: ({ control }, apiKey, scenario) => control.setAccountScenario(apiKey, scenario),
    },
    useBundledScenario: {
      method: 'PUT',
      path: '/accounts/{key}/scenario/bundled/{name}',
      answer: 'AccountScenario',
      args: [key, scenarioName],
      summary:
        'Gives the account a bundled scenario (`happy-path`, `degraded-api`, `rate-limited`, …; `GET /scenario/bundled` lists them) as its own, as `PUT /accounts/{key}/scenario` with that file would; one holding more than rules, replies and faults is refused.',
      run: ({ control }, apiKey, name) => control.setAccountScenario(apiKey, bundledScenarioText(name).text),
    },
    clearScenario: {
      method: 'DELETE',
      path: '/accounts/{key}/scenario',
      args: [key],
      status: 204,
      summary: "Removes the account's own scenario (204, no body): the emulator's alone decides for it again.",
      run: ({ control }, apiKey) => control.clearAccountScenario(apiKey),
    },
  },
  messages: {
    list: {
      method: 'GET',
      path: '/messages',
      answer: 'ControlMessage',
      args: [query],
      input: messageFilter,
      inputName: 'message filter',
      pages: true,
      summary:
        'Messages of both environments with legs and history, newest first; filters `environment`, `account`, `status`, `recipient`, `clientReference` (exact).',
      run: ({ control }, { page, limit, ...filter }: Paged<MessageQuery>) => control.listMessages(filter, page, limit),
    },
    get: {
      method: 'GET',
      path: '/messages/{id}',
      answer: 'ControlMessage',
      args: [id],
      summary: 'One message with legs, history and upcoming changes.',
      run: ({ control }, messageId) => control.message(messageId),
    },
    forceStatus: {
      method: 'POST',
      path: '/messages/{id}/status',
      answer: 'ControlMessage',
      args: [id, body],
      input: forceStatusInput,
      inputName: 'forced status',
      settles: (control, messageId) => control.clockOfMessage(messageId),
      summary:
        'Forces an outcome now: `{"status": "undelivered", "recipient"?: "27831234567"}` moves the open legs (or that one) through legal moves only, posts their webhooks, cancels the rest of their plan; answers the message after the webhooks were tried.',
      run: ({ control }, messageId, input: ForcedStatus) => control.forceStatus(messageId, input),
    },
    wait: {
      method: 'POST',
      path: '/messages/{id}/wait',
      answer: 'Wait',
      args: [id, body],
      input: waitInput,
      inputName: 'wait',
      summary:
        '`{"status": "delivered", "within"?: "1h"}`: moves the message\'s own clock to each of its next changes until it has that status and its webhooks were tried (a realtime clock is watched); answers `{message, clock}` (the clock\'s `id`, `now`, `time` then), or CONTROL_WAIT_FAILED with its history when it ends otherwise or `within` passes.',
      run: ({ waitFor }, messageId, { status, within }: WaitSpec) => waitFor(messageId, status, within),
    },
  },
  replies: {
    inject: {
      method: 'POST',
      path: '/messages/{id}/replies',
      answer: 'ControlMessage',
      args: [id, body],
      input: inboundReply,
      inputName: 'reply',
      status: 201,
      settles: (control, messageId) => control.clockOfMessage(messageId),
      summary:
        'Injects an inbound reply `{"from": "27831234567", "text": "Yes"}` (`from` defaults to the first recipient); answers after its webhook was tried.',
      run: ({ control }, messageId, reply: InboundReply) => control.injectReply(messageId, reply),
    },
    list: {
      method: 'GET',
      path: '/replies',
      answer: 'ControlMessage',
      args: [query],
      input: messageFilter.pick({ environment: true, account: true }),
      inputName: 'reply filter',
      pages: true,
      summary: 'Inbound replies, oldest first; filters `environment`, `account`.',
      run: ({ control }, { page, limit, ...filter }: Paged<MessageQuery>) =>
        paginate(control.listReplies(filter), page, limit),
    },
  },
  webhooks: {
    list: {
      method: 'GET',
      path: '/webhooks',
      answer: 'WebhookEvent',
      args: [query],
      input: webhookFilter,
      inputName: 'webhook filter',
      pages: true,
      summary:
        'The webhook log, oldest first: every event with every try (time, URL, status or error, duration); filters `account`, `environment`, `message`, `state` (`pending`, `delayed`, `delivered`, `failed`, `skipped`).',
      run: ({ control }, { page, limit, ...filter }: Paged<WebhookQuery>) =>
        paginate(control.listWebhooks(filter), page, limit),
    },
    get: {
      method: 'GET',
      path: '/webhooks/{id}',
      answer: 'WebhookEvent',
      args: [id],
      summary: 'One webhook event.',
      run: ({ control }, eventId) => control.webhook(eventId),
    },
    redeliver: {
      method: 'POST',
      path: '/webhooks/{id}/redeliver',
      answer: 'WebhookEvent',
      args: [id],
      settles: (control, eventId) => control.clockOfWebhook(eventId),
      summary: "Posts an event again to the account's current URL; answers once its tries end.",
      run: ({ control }, eventId) => control.redeliverWebhook(eventId),
    },
    settled: {
      method: 'POST',
      path: '/webhooks/settle',
      answer: 'Status',
      args: [body],
      input: accountScope,
      inputName: 'settle scope',
      settles: (control, { account }: AccountScope) =>
        account === undefined ? undefined : control.clockOfAccount(account),
      summary:
        'Answers `{"status": "settled"}` once every webhook try under way or due has ended; `{"account": "pk_…"}` waits only for the tries of that account\'s clock (its test clock\'s accounts), so a receiver hanging on another clock does not hold it.',
      run: () => ({ status: 'settled' as const }),
    },
    chaos: {
      method: 'GET',
      path: '/webhooks/chaos',
      answer: 'Chaos',
      args: [],
      summary: 'Receiver chaos in force: `{duplicateRate, delayRate, reorderRate, delay}` (delay in milliseconds).',
      run: ({ control }) => chaosView(control.webhookChaos()),
    },
    setChaos: {
      method: 'POST',
      path: '/webhooks/chaos',
      answer: 'Chaos',
      args: [body],
      input: webhookChaosInput,
      inputName: 'webhook chaos',
      summary:
        'Changes receiver chaos: `{"duplicateRate": 0.1, "delayRate": 0.2, "reorderRate": 0.05, "delay": "30s"}` (rates 0 to 1; delay a duration or milliseconds); fields left out keep their value.',
      run: ({ control }, settings: ChaosSettings) => chaosView(control.configureWebhookChaos(settings)),
    },
  },
  scenario: {
    get: {
      method: 'GET',
      path: '/scenario',
      answer: 'Scenario',
      args: [],
      summary: 'The active scenario, defaults filled in.',
      run: ({ control }) => control.scenario(),
    },
    set: {
      method: 'PUT',
      path: '/scenario',
      answer: 'Scenario',
      args: [{ in: 'text' }],
      summary: 'Replaces the active scenario (YAML or JSON body); a bad one is refused and changes nothing.',
      run: ({ control }, scenario) => control.replaceScenario(scenario),
    },
    bundled: {
      method: 'GET',
      path: '/scenario/bundled',
      answer: 'BundledScenarios',
      args: [],
      summary:
        'The scenarios shipped with the emulator, by name with what each does: `{"scenarios": [{"name": "happy-path", "description": …}, …]}`.',
      run: () => ({ scenarios: bundledScenarios() }),
    },
    useBundled: {
      method: 'PUT',
      path: '/scenario/bundled/{name}',
      answer: 'Scenario',
      args: [scenarioName],
      summary:
        'Makes a bundled scenario the active one by name (no file needed, outside a checkout too): as `PUT /scenario` with its YAML; an unknown name is CONTROL_NOT_FOUND listing the names.',
      run: ({ control }, name) => control.replaceScenario(bundledScenarioText(name).text),
    },
  },
  optOuts: {
    list: {
      method: 'GET',
      path: '/opt-outs',
      answer: 'PhoneNumber',
      args: [query],
      input: optOutTarget,
      inputName: 'opt-out filter',
      pages: true,
      summary:
        'Numbers opted out of an account (`account`, default the default account) in an `environment` (default live).',
      run: ({ control }, { page, limit, account, environment }: Paged<OptOutQuery>) =>
        paginate(control.optOuts(account, environment), page, limit),
    },
    add: {
      method: 'PUT',
      path: '/opt-outs/{number}',
      answer: 'OptOut',
      args: [number, query],
      input: optOutTarget,
      inputName: 'opt-out target',
      summary:
        'Opts a number out (same `account`, `environment` query); answers `{account, environment, number, optedOut}`.',
      run: (deps, phone, target: OptOutQuery) => setOptOut(deps, phone, true, target),
    },
    remove: {
      method: 'DELETE',
      path: '/opt-outs/{number}',
      answer: 'OptOut',
      args: [number, query],
      input: optOutTarget,
      inputName: 'opt-out target',
      summary: 'Opts a number back in (same `account`, `environment` query).',
      run: (deps, phone, target: OptOutQuery) => setOptOut(deps, phone, false, target),
    },
  },
  requests: {
    find: {
      method: 'GET',
      path: '/requests',
      answer: 'JournalEntry',
      args: [query],
      input: journalFilter,
      inputName: 'request filter',
      pages: true,
      summary:
        'The request journal, newest first: every API request, accepted or rejected; filters `account`, `environment`, `method`, `path` (part of), `status`, `code`, `since` (emulator time, or a journal id), `message`.',
      run: ({ journal }, { page, limit, ...filter }: Paged<JournalQuery>) =>
        paginate(journal.find(filter), page, limit),
    },
    count: {
      method: 'GET',
      path: '/requests/count',
      answer: 'Count',
      args: [query],
      input: journalFilter,
      inputName: 'request filter',
      summary: 'How many journal entries match the same filters: a number.',
      run: ({ journal }, filter: JournalQuery) => journal.count(filter),
    },
  },
  sign: {
    method: 'POST',
    path: '/sign',
    answer: 'Signature',
    args: [body, { in: 'query', name: 'account' }],
    summary:
      'Body = the fields to send; answers `{string_to_sign, signature}` with the secret of `?account=` (default account).',
    run: ({ control }, fields, apiKey) => control.sign(fields, apiKey),
  },
  reset: {
    method: 'POST',
    path: '/reset',
    answer: 'Status',
    args: [body],
    input: accountScope,
    inputName: 'reset',
    summary: 'Back to the start-up state (see "What `reset` restores"); `{"account": "pk_…"}` resets one account only.',
    run: ({ control, journal }, { account }: AccountScope) => {
      control.reset(account);
      // The start-state routine empties the whole journal; one account's reset drops only its entries.
      if (account !== undefined) journal.clear(account);
      return { status: 'reset' as const };
    },
  },
  snapshot: {
    method: 'GET',
    path: '/snapshot',
    answer: 'Snapshot',
    args: [],
    summary: 'The whole state as JSON.',
    run: ({ control }) => control.snapshot(),
  },
  restore: {
    method: 'PUT',
    path: '/snapshot',
    answer: 'Status',
    args: [body],
    summary:
      'Replaces the whole state with a snapshot (exact round trip, pending timers included); a bad one changes nothing.',
    run: ({ control }, snapshot) => {
      control.restore(snapshot);
      return { status: 'restored' as const };
    },
  },
} satisfies OperationTable;
