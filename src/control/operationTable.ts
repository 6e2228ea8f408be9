/**
 * The one table of control operations: each declared once (method, path, how the handle's arguments travel, input,
 * summary) with the one handler of `handlers/` it runs. The HTTP routes, their Allow headers, both handles, the docs
 * table and the OpenAPI document come from it.
 */

import {
  accountInput,
  accountPatch,
  accountScope,
  clockCommand,
  forceStatusInput,
  messageFilter,
  noFilter,
  optOutTarget,
  receiverCheckInput,
  replyInput,
  testClockInput,
  waitInput,
  webhookChaosInput,
  webhookFilter,
  worldInput,
} from './inputs.js';
import { journalFilter } from '../journal/requestJournal.js';
import { addOptOut, listOptOuts, removeOptOut } from './handlers/optOuts.js';
import {
  clearAccountScenario,
  getAccountScenario,
  getScenario,
  listBundledScenarios,
  setAccountScenario,
  setScenario,
  useBundledAccountScenario,
  useBundledScenario,
} from './handlers/scenario.js';
import { clockState, moveMainClock, settlesMainClock } from './handlers/clock.js';
import { countRequests, findRequests } from './handlers/requests.js';
import {
  createAccount,
  deleteAccount,
  getAccount,
  listAccounts,
  signBody,
  updateAccount,
} from './handlers/accounts.js';
import { createClock, deleteClock, getClock, listClocks, moveTestClock, settlesTestClock } from './handlers/clocks.js';
import { createWorld } from './handlers/worlds.js';
import { forceStatus, getMessage, listMessages, settlesMessage, waitForStatus } from './handlers/messages.js';
import {
  checkWebhookReceiver,
  getWebhook,
  listWebhooks,
  redeliverWebhook,
  setWebhookChaos,
  settlesAccountScope,
  settlesWebhook,
  webhookChaos,
  webhooksSettled,
} from './handlers/webhooks.js';
import {
  appliedLimits,
  health,
  resetState,
  restoreSnapshot,
  restoreSnapshotInSlices,
  takeSnapshot,
} from './handlers/state.js';
import { injectReply, listReplies } from './handlers/replies.js';
import type { OperationTable } from './operation.js';

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
    run: health,
  },
  limits: {
    method: 'GET',
    path: '/limits',
    answer: 'Limits',
    args: [],
    summary:
      'The limits applied, as started: `{batchLimit, batchLimitNote, messageLimit, maxBodySize}` (most recipients per request and why, longest text in characters, largest body in bytes).',
    run: appliedLimits,
  },
  clock: {
    state: {
      method: 'GET',
      path: '/clock',
      answer: 'Clock',
      args: [],
      summary:
        'The clock: `{now, time, mode, speed, pendingTasks, incidents}` (`incidents`: recent tasks that failed or were skipped, `{time, task, outcome, reason}`).',
      run: clockState,
    },
    move: {
      method: 'POST',
      path: '/clock',
      answer: 'Clock',
      args: [body],
      input: clockCommand,
      inputName: 'clock command',
      settles: settlesMainClock,
      summary:
        'Moves the clock: `{"advance": "15m"}`, `{"set": "2026-11-22T09:00:00+02:00"}`, `{"mode": "manual"}`, `{"speed": 60}` (combinable; mode/speed, then set, then advance); or `{"runUntilIdle": true, "limit": "30d"}` or `{"next": true}` (the answer adds `run: {fired, idle, stoppedAt?}`). Due events fire in time order; answers after their webhooks were tried.',
      run: moveMainClock,
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
      run: listClocks,
    },
    get: {
      method: 'GET',
      path: '/clocks/{id}',
      answer: 'TestClock',
      args: [id],
      summary: 'One test clock.',
      run: getClock,
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
      run: createClock,
    },
    move: {
      method: 'POST',
      path: '/clocks/{id}',
      answer: 'TestClock',
      args: [id, body],
      input: clockCommand,
      inputName: 'clock command',
      settles: settlesTestClock,
      summary:
        'Moves a test clock like `POST /clock` (`advance`, `set`, `runUntilIdle` with `limit`, `next`; no `mode` or `speed`: a test clock is always manual); only its own tasks fire; answers after their webhooks were tried.',
      run: moveTestClock,
    },
    delete: {
      method: 'DELETE',
      path: '/clocks/{id}',
      args: [id],
      status: 204,
      summary:
        'Deletes a test clock and every account on it, with their messages, journal entries and webhook log entries (204, no body).',
      run: deleteClock,
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
      run: createWorld,
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
      run: listAccounts,
    },
    get: {
      method: 'GET',
      path: '/accounts/{key}',
      answer: 'Account',
      args: [key],
      summary: 'One account.',
      run: getAccount,
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
      run: createAccount,
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
      run: updateAccount,
    },
    delete: {
      method: 'DELETE',
      path: '/accounts/{key}',
      args: [key],
      status: 204,
      summary: 'Removes the account with its messages, journal entries and webhook log entries (204, no body).',
      run: deleteAccount,
    },
    getScenario: {
      method: 'GET',
      path: '/accounts/{key}/scenario',
      answer: 'AccountScenario',
      args: [key],
      summary: "The account's own scenario (rules, replies, faults), defaults filled in; empty lists when it has none.",
      run: getAccountScenario,
    },
    setScenario: {
      method: 'PUT',
      path: '/accounts/{key}/scenario',
      answer: 'AccountScenario',
      args: [key, { in: 'text' }],
      summary:
        "Gives the account its own scenario (YAML or JSON body: `rules`, `replies`, `faults`), consulted before the emulator's for its requests and legs only; it replaces an earlier one and is gone when cleared, or the account is reset or deleted. A bad one is refused and changes nothing.",
      run: setAccountScenario,
    },
    useBundledScenario: {
      method: 'PUT',
      path: '/accounts/{key}/scenario/bundled/{name}',
      answer: 'AccountScenario',
      args: [key, scenarioName],
      summary:
        'Gives the account a bundled scenario (`happy-path`, `credit-exhaustion`, `degraded-api`, …; `GET /scenario/bundled` lists them), written for the default account, as its own: its rules, replies, faults and delivery behaviours as `PUT /accounts/{key}/scenario` would set them, its balance and opt-outs applied to this account, its timeline events run for this account on its clock.',
      run: useBundledAccountScenario,
    },
    clearScenario: {
      method: 'DELETE',
      path: '/accounts/{key}/scenario',
      args: [key],
      status: 204,
      summary: "Removes the account's own scenario (204, no body): the emulator's alone decides for it again.",
      run: clearAccountScenario,
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
      run: listMessages,
    },
    get: {
      method: 'GET',
      path: '/messages/{id}',
      answer: 'ControlMessage',
      args: [id],
      summary: 'One message with legs, history and upcoming changes.',
      run: getMessage,
    },
    forceStatus: {
      method: 'POST',
      path: '/messages/{id}/status',
      answer: 'ControlMessage',
      args: [id, body],
      input: forceStatusInput,
      inputName: 'forced status',
      settles: settlesMessage,
      summary:
        'Forces an outcome now: `{"status": "undelivered", "recipient"?: "27831234567"}` moves the open legs (or that one) through legal moves only, posts their webhooks, cancels the rest of their plan; answers the message after the webhooks were tried.',
      run: forceStatus,
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
      run: waitForStatus,
    },
  },
  replies: {
    inject: {
      method: 'POST',
      path: '/messages/{id}/replies',
      answer: 'ControlMessage',
      args: [id, body],
      input: replyInput,
      inputName: 'reply',
      status: 201,
      settles: settlesMessage,
      summary:
        'Injects an inbound reply `{"from": "27831234567", "text": "Yes"}` (`from` defaults to the first recipient); answers after its webhook was tried.',
      run: injectReply,
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
      run: listReplies,
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
      run: listWebhooks,
    },
    get: {
      method: 'GET',
      path: '/webhooks/{id}',
      answer: 'WebhookEvent',
      args: [id],
      summary: 'One webhook event.',
      run: getWebhook,
    },
    redeliver: {
      method: 'POST',
      path: '/webhooks/{id}/redeliver',
      answer: 'WebhookEvent',
      args: [id],
      settles: settlesWebhook,
      summary: "Posts an event again to the account's current URL; answers once its tries end.",
      run: redeliverWebhook,
    },
    settled: {
      method: 'POST',
      path: '/webhooks/settle',
      answer: 'Status',
      args: [body],
      input: accountScope,
      inputName: 'settle scope',
      settles: settlesAccountScope,
      summary:
        'Answers `{"status": "settled"}` once every webhook try under way or due has ended; `{"account": "pk_…"}` waits only for the tries of that account\'s clock (its test clock\'s accounts), so a receiver hanging on another clock does not hold it.',
      run: webhooksSettled,
    },
    chaos: {
      method: 'GET',
      path: '/webhooks/chaos',
      answer: 'Chaos',
      args: [],
      summary: 'Receiver chaos in force: `{duplicateRate, delayRate, reorderRate, delay}` (delay in milliseconds).',
      run: webhookChaos,
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
      run: setWebhookChaos,
    },
  },
  receiverCheck: {
    method: 'POST',
    path: '/receiver-check',
    answer: 'ReceiverReport',
    args: [body],
    input: receiverCheckInput,
    inputName: 'receiver check',
    summary:
      'Runs check-receiver against a webhook receiver and answers its report (what `check-receiver --json` prints): `{"receiver": "http://127.0.0.1:4000/hooks", "state"?: "http://127.0.0.1:4000/sms/{id}", "receiverTimeout"?, "only"?: […], "skip"?: […], "seed"?, "at"?, "signingSecret"?}` (timeout and secret default to the emulator\'s webhook ones); answers when the run ends.',
    run: checkWebhookReceiver,
  },
  scenario: {
    get: {
      method: 'GET',
      path: '/scenario',
      answer: 'Scenario',
      args: [],
      summary: 'The active scenario, defaults filled in.',
      run: getScenario,
    },
    set: {
      method: 'PUT',
      path: '/scenario',
      answer: 'Scenario',
      args: [{ in: 'text' }],
      summary: 'Replaces the active scenario (YAML or JSON body); a bad one is refused and changes nothing.',
      run: setScenario,
    },
    bundled: {
      method: 'GET',
      path: '/scenario/bundled',
      answer: 'BundledScenarios',
      args: [],
      summary:
        'The scenarios shipped with the emulator, by name with what each does: `{"scenarios": [{"name": "happy-path", "description": …}, …]}`.',
      run: listBundledScenarios,
    },
    useBundled: {
      method: 'PUT',
      path: '/scenario/bundled/{name}',
      answer: 'Scenario',
      args: [scenarioName],
      summary:
        'Makes a bundled scenario the active one by name (no file needed, outside a checkout too): as `PUT /scenario` with its YAML; an unknown name is CONTROL_NOT_FOUND listing the names.',
      run: useBundledScenario,
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
      run: listOptOuts,
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
      run: addOptOut,
    },
    remove: {
      method: 'DELETE',
      path: '/opt-outs/{number}',
      answer: 'OptOut',
      args: [number, query],
      input: optOutTarget,
      inputName: 'opt-out target',
      summary: 'Opts a number back in (same `account`, `environment` query).',
      run: removeOptOut,
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
      run: findRequests,
    },
    count: {
      method: 'GET',
      path: '/requests/count',
      answer: 'Count',
      args: [query],
      input: journalFilter,
      inputName: 'request filter',
      summary: 'How many journal entries match the same filters: a number.',
      run: countRequests,
    },
  },
  sign: {
    method: 'POST',
    path: '/sign',
    answer: 'Signature',
    args: [body, { in: 'query', name: 'account' }],
    summary:
      'Body = the fields to send; answers `{string_to_sign, signature}` with the secret of `?account=` (default account).',
    run: signBody,
  },
  reset: {
    method: 'POST',
    path: '/reset',
    answer: 'Status',
    args: [body],
    input: accountScope,
    inputName: 'reset',
    summary: 'Back to the start-up state (see "What `reset` restores"); `{"account": "pk_…"}` resets one account only.',
    run: resetState,
  },
  snapshot: {
    method: 'GET',
    path: '/snapshot',
    answer: 'Snapshot',
    args: [],
    summary: 'The whole state as JSON.',
    run: takeSnapshot,
  },
  restore: {
    method: 'PUT',
    path: '/snapshot',
    answer: 'Status',
    args: [body],
    summary:
      'Replaces the whole state with a snapshot (exact round trip, pending timers included); a bad one changes nothing. Over HTTP it is parsed, checked and put in place in slices, so health answers throughout and other requests wait for it; larger than maxSnapshotSize is SNAPSHOT_TOO_LARGE, nested deeper than 512 levels SNAPSHOT_TOO_DEEP.',
    run: restoreSnapshot,
    runInSlices: restoreSnapshotInSlices,
  },
} satisfies OperationTable;
