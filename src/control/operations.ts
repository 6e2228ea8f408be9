/**
 * The one table of control operations: each declared once (method, path, how the handle's arguments travel, input,
 * summary, handler). The HTTP routes, their Allow headers, both handles, the docs table and the OpenAPI document come from it.
 */

import { z } from 'zod';
import { ApiError } from '../domain/errors.js';
import type { Control } from '../engine/control.js';
import {
  accountInput,
  accountPatch,
  clockCommand,
  forceStatusInput,
  messageFilter,
  optOutTarget,
  parseControl,
  replyInput,
  resetInput,
  testClockInput,
  webhookChaosInput,
  webhookFilter,
} from '../engine/controlInput.js';
import { type RequestJournal, journalFilter } from '../journal/requestJournal.js';
import type { WebhookChaos } from '../webhooks/dispatcher.js';
import type { AnswerName } from './answerSchemas.js';
import type { ArgSpec } from './call.js';
import type { ChaosView, ControlHandle, OptOutView } from './handle.js';
import { type Page, pageFields, paginate } from '../domain/list.js';

/** What the handlers reach: the engine's control operations, the request journal, and the wait for webhooks in flight. */
export interface OperationDeps {
  control: Control;
  journal: RequestJournal;
  settled(): Promise<void>;
  /** The API key of the default account (what calls without an `account` mean). */
  defaultAccount: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table is checked member by member against ControlHandle below
type Fn = (...args: any[]) => unknown;

/** An operation with its own HTTP route. */
export interface RouteOperation<F extends Fn = Fn> {
  method: HttpMethod;
  /** Under `/_emulator`, OpenAPI style: `/accounts/{key}`. */
  path: string;
  /** Where each handle argument goes, in the handle's argument order. */
  args: readonly ArgSpec[];
  /** One sentence for docs/control-api.md, the OpenAPI document and the docs pages. */
  summary: string;
  /** The object a `body`/`query` argument must match (for the OpenAPI document; the handler validates). */
  input?: z.ZodType;
  /** The success status (default 200). */
  status?: 200 | 201 | 204;
  /** What a success answers (a list's items, for a list), by its name in `answerSchemas`; none for 204. */
  answer?: AnswerName;
  /** Answers only after every webhook try it caused (and any other in flight) has ended. */
  settles?: boolean;
  /** Open without the control token. */
  open?: boolean;
  run(deps: OperationDeps, ...args: Parameters<F>): unknown;
}

/** A handle member that is another operation with its arguments filled in (`clock.advance('1m')` is `clock.move({ advance: '1m' })`). */
export interface ShortcutOperation<F extends Fn = Fn> {
  via: OperationId;
  summary: string;
  map(...args: Parameters<F>): unknown[];
  /** Turns the target's answer into this member's (both handles apply it; the HTTP answer stays the target's). */
  answer?(output: never): Awaited<ReturnType<F>>;
}

export type Operation<F extends Fn = Fn> = RouteOperation<F> | ShortcutOperation<F>;

type Local = ControlHandle<'local'>;
/** The table has exactly the members of ControlHandle, each typed by that member's signature. */
type OperationTable = {
  [K in keyof Local]: Local[K] extends Fn ? Operation<Local[K]> : { [N in keyof Local[K]]: Local[K][N] extends Fn ? Operation<Local[K][N]> : never };
};

/** `accounts.update`, `reset`, …: a handle member's dotted name. */
export type OperationId = {
  [K in keyof Local & string]: Local[K] extends Fn ? K : `${K}.${keyof Local[K] & string}`;
}[keyof Local & string];

const pageInput = z.object(pageFields);
const noFilter = z.strictObject({});

/** Splits `page`/`limit` off a list filter, checks them, and pages what `list` returns for the rest. */
function pageOf<T>(input: unknown, what: string, list: (filter: Record<string, unknown>) => T[]): Page<T> {
  return queryPage(input, what, (filter, page, limit) => paginate(list(filter), page, limit));
}

/** Splits `page`/`limit` off a list filter, checks them, and hands both to `query`, which pages in its own search. */
function queryPage<T>(input: unknown, what: string, query: (filter: Record<string, unknown>, page: number, limit: number) => Page<T>): Page<T> {
  const { page: pageText, limit: limitText, ...filter } = objectInput(input, what);
  const { page, limit } = parseControl(pageInput, { page: pageText, limit: limitText }, what);
  return query(filter, page, limit);
}

/** A body or query that must be an object (or absent); anything else is refused. */
function objectInput(input: unknown, what: string): Record<string, unknown> {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new ApiError('CONTROL_INVALID_REQUEST', `Invalid ${what}: expected a JSON object.`);
  return input as Record<string, unknown>;
}

function chaosView({ delayMs, ...rates }: WebhookChaos): ChaosView {
  return { ...rates, delay: delayMs };
}

const key = { in: 'path', name: 'key' } as const;
const id = { in: 'path', name: 'id' } as const;
const number = { in: 'path', name: 'number' } as const;
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
      settles: true,
      summary:
        'Moves the clock: `{"advance": "15m"}`, `{"set": "2026-11-22T09:00:00+02:00"}`, `{"mode": "manual"}`, `{"speed": 60}` (combinable; mode/speed, then set, then advance); or `{"runUntilIdle": true, "limit": "30d"}` or `{"next": true}` (the answer adds `run: {fired, idle, stoppedAt?}`). Due events fire in time order; answers after their webhooks were tried.',
      run: ({ control }, command) => control.moveClock(command),
    },
    now: {
      via: 'clock.state',
      summary: 'The current time as a Date.',
      map: () => [],
      answer: (clock: { now: number }) => new Date(clock.now),
    },
    advance: { via: 'clock.move', summary: 'Moves the clock forward by a duration.', map: (duration) => [{ advance: duration }] },
    set: { via: 'clock.move', summary: 'Sets the clock to an instant.', map: (instant) => [{ set: instant }] },
    configure: { via: 'clock.move', summary: 'Changes mode and speed.', map: (settings) => [settings] },
    runUntilIdle: { via: 'clock.move', summary: 'Runs until nothing is queued (or a limit).', map: (options = {}) => [{ runUntilIdle: true, ...options }] },
    next: { via: 'clock.move', summary: 'Runs to the next queued event.', map: () => [{ next: true }] },
  },
  clocks: {
    list: {
      method: 'GET',
      path: '/clocks',
      answer: 'TestClock',
      args: [query],
      input: noFilter,
      summary: 'Every test clock, in creation order: `{id, name, now, time, mode, speed, pendingTasks, incidents, accounts}` (`accounts`: the API keys on it).',
      run: ({ control }, filter) =>
        pageOf(filter, 'clock filter', (rest) => {
          parseControl(noFilter, rest, 'clock filter');
          return control.listClocks();
        }),
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
      status: 201,
      summary:
        'Creates a test clock, frozen until moved: `{"startTime"?: "2026-11-22T09:00:00Z", "name"?: "booking test"}` (default start: the main clock\'s now). Accounts created with `"clock": id` live on it.',
      run: ({ control }, clock) => control.createClock(clock),
    },
    move: {
      method: 'POST',
      path: '/clocks/{id}',
      answer: 'TestClock',
      args: [id, body],
      input: clockCommand,
      settles: true,
      summary:
        'Moves a test clock like `POST /clock` (`advance`, `set`, `runUntilIdle` with `limit`, `next`; no `mode` or `speed`: a test clock is always manual); only its own tasks fire; answers after their webhooks were tried.',
      run: ({ control }, clockId, command) => control.moveTestClock(clockId, command),
    },
    delete: {
      method: 'DELETE',
      path: '/clocks/{id}',
      args: [id],
      status: 204,
      summary: 'Deletes a test clock and every account on it, with their messages (204, no body).',
      run: ({ control }, clockId) => control.deleteClock(clockId),
    },
    now: {
      via: 'clocks.get',
      summary: "A test clock's time as a Date.",
      map: (clockId) => [clockId],
      answer: (clock: { now: number }) => new Date(clock.now),
    },
    advance: { via: 'clocks.move', summary: 'Moves a test clock forward by a duration.', map: (clockId, duration) => [clockId, { advance: duration }] },
    set: { via: 'clocks.move', summary: 'Sets a test clock to an instant.', map: (clockId, instant) => [clockId, { set: instant }] },
    runUntilIdle: {
      via: 'clocks.move',
      summary: 'Runs a test clock until none of its tasks is queued (or a limit).',
      map: (clockId, options = {}) => [clockId, { runUntilIdle: true, ...options }],
    },
    next: { via: 'clocks.move', summary: 'Runs a test clock to its next queued event.', map: (clockId) => [clockId, { next: true }] },
  },
  accounts: {
    list: {
      method: 'GET',
      path: '/accounts',
      answer: 'Account',
      args: [query],
      input: noFilter,
      summary: 'Every account with balances, webhook URLs and opt-outs per environment, in creation order.',
      run: ({ control }, filter) =>
        pageOf(filter, 'account filter', (rest) => {
          parseControl(noFilter, rest, 'account filter');
          return control.listAccounts();
        }),
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
      status: 201,
      summary:
        'Creates an account: `apiKey` (pk_…), `signingSecret`, `balance`, `sandboxBalance`, `webhookUrl`, `sandboxWebhookUrl`, `scopes`, `clock` (a test clock id: the account lives on it). An existing key is `CONTROL_CONFLICT`.',
      run: ({ control }, account) => control.createAccount(account),
    },
    update: {
      method: 'PATCH',
      path: '/accounts/{key}',
      answer: 'Account',
      args: [key, body],
      input: accountPatch,
      summary:
        'Changes an account: `{"live": {"balance": 5, "addBalance": 10, "webhookUrl": "…"}, "sandbox": {…}, "signingSecret": "…", "scopes": […]}`; a balance below 0 is refused.',
      run: ({ control }, apiKey, patch) => control.updateAccount(apiKey, patch),
    },
    delete: {
      method: 'DELETE',
      path: '/accounts/{key}',
      args: [key],
      status: 204,
      summary: 'Removes the account and its messages (204, no body).',
      run: ({ control }, apiKey) => control.deleteAccount(apiKey),
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
      summary: 'Messages of both environments with legs and history, newest first; filters `environment`, `account`, `status`, `recipient`.',
      run: ({ control }, filter) => queryPage(filter, 'message filter', (rest, page, limit) => control.listMessages(rest, page, limit)),
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
      settles: true,
      summary:
        'Forces an outcome now: `{"status": "undelivered", "recipient"?: "27831234567"}` moves the open legs (or that one) through legal moves only, posts their webhooks, cancels the rest of their plan; answers the message after the webhooks were tried.',
      run: ({ control }, messageId, input) => control.forceStatus(messageId, input),
    },
  },
  replies: {
    inject: {
      method: 'POST',
      path: '/messages/{id}/replies',
      answer: 'ControlMessage',
      args: [id, body],
      input: replyInput.omit({ messageId: true }),
      status: 201,
      settles: true,
      summary:
        'Injects an inbound reply `{"from": "27831234567", "text": "Yes"}` (`from` defaults to the first recipient); answers after its webhook was tried.',
      run: ({ control }, messageId, reply) => control.injectReply({ ...objectInput(reply, 'reply'), messageId } as never),
    },
    list: {
      method: 'GET',
      path: '/replies',
      answer: 'ControlMessage',
      args: [query],
      input: messageFilter.pick({ environment: true, account: true }),
      summary: 'Inbound replies, oldest first; filters `environment`, `account`.',
      run: ({ control }, filter) => pageOf(filter, 'reply filter', (rest) => control.listReplies(rest)),
    },
  },
  webhooks: {
    list: {
      method: 'GET',
      path: '/webhooks',
      answer: 'WebhookEvent',
      args: [query],
      input: webhookFilter,
      summary:
        'The webhook log, oldest first: every event with every try (time, URL, status or error, duration); filters `account`, `environment`, `message`, `state` (`pending`, `delayed`, `delivered`, `failed`, `skipped`).',
      run: ({ control }, filter) => pageOf(filter, 'webhook filter', (rest) => control.listWebhooks(rest)),
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
      settles: true,
      summary: "Posts an event again to the account's current URL; answers once its tries end.",
      run: ({ control }, eventId) => control.redeliverWebhook(eventId),
    },
    settled: {
      method: 'POST',
      path: '/webhooks/settle',
      answer: 'Status',
      args: [],
      settles: true,
      summary: 'Answers `{"status": "settled"}` once every webhook try under way or due has ended.',
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
      summary:
        'Changes receiver chaos: `{"duplicateRate": 0.1, "delayRate": 0.2, "reorderRate": 0.05, "delay": "30s"}` (rates 0 to 1; delay a duration or milliseconds); fields left out keep their value.',
      run: ({ control }, settings) => chaosView(control.webhookChaos(objectInput(settings, 'webhook chaos') as never)),
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
  },
  optOuts: {
    list: {
      method: 'GET',
      path: '/opt-outs',
      answer: 'PhoneNumber',
      args: [query],
      input: optOutTarget,
      summary: 'Numbers opted out of an account (`account`, default the default account) in an `environment` (default live).',
      run: ({ control }, filter) =>
        pageOf(filter, 'opt-out filter', (rest) => {
          const { account, environment } = parseControl(optOutTarget, rest, 'opt-out filter');
          return control.optOuts(account, environment);
        }),
    },
    add: {
      method: 'PUT',
      path: '/opt-outs/{number}',
      answer: 'OptOut',
      args: [number, query],
      input: optOutTarget,
      summary: 'Opts a number out (same `account`, `environment` query); answers `{account, environment, number, optedOut}`.',
      run: (deps, phone, target) => setOptOut(deps, phone, true, target),
    },
    remove: {
      method: 'DELETE',
      path: '/opt-outs/{number}',
      answer: 'OptOut',
      args: [number, query],
      input: optOutTarget,
      summary: 'Opts a number back in (same `account`, `environment` query).',
      run: (deps, phone, target) => setOptOut(deps, phone, false, target),
    },
  },
  requests: {
    find: {
      method: 'GET',
      path: '/requests',
      answer: 'JournalEntry',
      args: [query],
      input: journalFilter,
      summary:
        'The request journal, newest first: every API request, accepted or rejected; filters `account`, `environment`, `method`, `path` (part of), `status`, `code`, `since` (emulator time, or a journal id), `message`.',
      run: ({ journal }, filter) => pageOf(filter, 'request filter', (rest) => journal.find(parseControl(journalFilter, rest, 'request filter'))),
    },
    count: {
      method: 'GET',
      path: '/requests/count',
      answer: 'Count',
      args: [query],
      input: journalFilter,
      summary: 'How many journal entries match the same filters: a number.',
      run: ({ journal }, filter) => journal.count(parseControl(journalFilter, filter ?? {}, 'request filter')),
    },
  },
  sign: {
    method: 'POST',
    path: '/sign',
    answer: 'Signature',
    args: [body, { in: 'query', name: 'account' }],
    summary: 'Body = the fields to send; answers `{string_to_sign, signature}` with the secret of `?account=` (default account).',
    run: ({ control }, fields, apiKey) => control.sign(fields, apiKey),
  },
  reset: {
    method: 'POST',
    path: '/reset',
    answer: 'Status',
    args: [body],
    input: resetInput,
    summary: 'Back to the start-up state (see "What `reset` restores"); `{"account": "pk_…"}` resets one account only.',
    run: ({ control, journal }, options) => {
      const { account } = parseControl(resetInput, options, 'reset');
      control.reset(account);
      // The start-state routine empties the whole journal; one account's reset drops only its entries.
      if (account !== undefined) journal.clear(account);
      return { status: 'reset' as const };
    },
  },
  snapshot: { method: 'GET', path: '/snapshot', answer: 'Snapshot', args: [], summary: 'The whole state as JSON.', run: ({ control }) => control.snapshot() },
  restore: {
    method: 'PUT',
    path: '/snapshot',
    answer: 'Status',
    args: [body],
    summary: 'Replaces the whole state with a snapshot (exact round trip, pending timers included); a bad one changes nothing.',
    run: ({ control }, snapshot) => {
      control.restore(snapshot);
      return { status: 'restored' as const };
    },
  },
} satisfies OperationTable;

function setOptOut({ control, defaultAccount }: OperationDeps, phone: string, optedOut: boolean, target: unknown): OptOutView {
  const { account: apiKey = defaultAccount, environment = 'live' } = parseControl(optOutTarget, target, 'opt-out target');
  control.setOptOut(phone, optedOut, apiKey, environment);
  return { account: apiKey, environment, number: phone, optedOut };
}

/** Every operation with its dotted id, in table order. */
export function operationList(): [OperationId, Operation][] {
  const list: [OperationId, Operation][] = [];
  for (const [name, entry] of Object.entries(operations)) {
    if (isOperation(entry)) list.push([name as OperationId, entry]);
    else for (const [member, op] of Object.entries(entry)) list.push([`${name}.${member}` as OperationId, op as Operation]);
  }
  return list;
}

export function isOperation(entry: object): entry is Operation {
  return 'run' in entry || 'via' in entry;
}

export function isRoute(op: Operation): op is RouteOperation {
  return 'run' in op;
}

/** The route operation behind an id (a shortcut's target). */
export function routeOf(operationId: OperationId): RouteOperation {
  const op = operationList().find(([entryId]) => entryId === operationId)?.[1];
  if (op === undefined || !isRoute(op)) throw new Error(`sms-emulator: no route operation ${operationId}`);
  return op;
}

/** Runs an operation; one that settles answers only after the webhooks in flight have been tried. */
export function runOperation(op: RouteOperation, deps: OperationDeps, args: readonly unknown[]): unknown {
  const run = (): unknown => (op.run as (deps: OperationDeps, ...rest: readonly unknown[]) => unknown)(deps, ...args);
  if (!op.settles) return run();
  // Async throughout, so a failure is a rejection like every other outcome of a waiting call.
  return (async () => {
    const value = await run();
    await deps.settled();
    return value;
  })();
}
