/**
 * The machinery of the control operations table (operationTable.ts): what an operation is, the list of ids, and running
 * one, which parses its input once and waits once for the webhook tries it caused.
 */

import type { z } from 'zod';
import type { Control } from '../engine/control.js';
import type { Clock } from '../state/clock.js';
import type { RequestJournal } from '../journal/requestJournal.js';
import { pageFields } from '../domain/list.js';
import type { AnswerName } from './answerSchemas.js';
import type { ArgSpec } from './call.js';
import type { ControlHandle, WaitView } from './handle.js';
import type { WaitStatus } from './waitFor.js';
import { operations } from './operationTable.js';
import { parseControl } from './parseControl.js';

/** What the handlers reach: the engine's control operations, the request journal, and the wait for webhooks in flight. */
export interface OperationDeps {
  control: Control;
  journal: RequestJournal;
  /** Resolves once the webhook tries of `clock`'s accounts (every clock's, when none is given) have ended. */
  settled(clock?: Clock): Promise<void>;
  /** The API key of the default account (what calls without an `account` mean). */
  defaultAccount: string;
  /** `waitFor(id).toReach(status)` on the in-process handle, answering where the message's clock then stands. */
  waitFor(messageId: string, status: WaitStatus, within: string | number | undefined): Promise<WaitView>;
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
  /** The object the `body` or `query` argument must match: runOperation parses it and hands `run` the parsed value. */
  input?: z.ZodType;
  /** What the input is called in a refusal: `Invalid clock command: …`. */
  inputName?: string;
  /** A list: its query also carries `page` and `limit`, parsed with the input and handed to `run` with it. */
  pages?: boolean;
  /** The success status (default 200). */
  status?: 200 | 201 | 204;
  /** What a success answers (a list's items, for a list), by its name in `answerSchemas`; none for 204. */
  answer?: AnswerName;
  /**
   * Answers only after the webhook tries it caused have ended: those of the clock this function names from the
   * operation's parsed arguments (called after `run`, so an unknown id was already refused), and every clock's when it
   * names none. Another clock's receiver that hangs never holds the answer. `run` may answer with a function, called
   * once they have, so the answer is read after them.
   */
  settles?(control: Control, ...args: Parameters<F>): Clock | undefined;
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
export type OperationTable = {
  [K in keyof Local]: Local[K] extends Fn
    ? Operation<Local[K]>
    : { [N in keyof Local[K]]: Local[K][N] extends Fn ? Operation<Local[K][N]> : never };
};

/** `accounts.update`, `reset`, …: a handle member's dotted name. */
export type OperationId = {
  [K in keyof Local & string]: Local[K] extends Fn ? K : `${K}.${keyof Local[K] & string}`;
}[keyof Local & string];

/** Every operation with its dotted id, in table order. */
export function operationList(): [OperationId, Operation][] {
  const list: [OperationId, Operation][] = [];
  for (const [name, entry] of Object.entries(operations)) {
    if (isOperation(entry)) list.push([name as OperationId, entry]);
    else
      for (const [member, op] of Object.entries(entry))
        list.push([`${name}.${member}` as OperationId, op as Operation]);
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

/** The schema of an operation's input argument: the input, with `page` and `limit` for a list (built once per operation). */
const inputSchemas = new WeakMap<RouteOperation, z.ZodType>();
function inputSchema(op: RouteOperation, input: z.ZodType): z.ZodType {
  let schema = inputSchemas.get(op);
  if (schema === undefined) {
    schema = op.pages ? (input as z.ZodObject).extend(pageFields) : input;
    inputSchemas.set(op, schema);
  }
  return schema;
}

/** The body or query object an input is parsed from (a path parameter or a named query parameter is not). */
const carriesInput = (spec: ArgSpec | undefined): boolean =>
  spec?.in === 'body' || (spec?.in === 'query' && spec.name === undefined);

/**
 * Runs an operation: its input is parsed here, once, and `run` gets the parsed value. One that settles answers only
 * after the webhooks in flight have been tried (then reads its answer, when `run` gave a function for it).
 */
export function runOperation(op: RouteOperation, deps: OperationDeps, args: readonly unknown[]): unknown {
  const { input, settles } = op;
  const parse = (): readonly unknown[] =>
    input === undefined
      ? args
      : op.args.map((spec, index) =>
          carriesInput(spec) ? parseControl(inputSchema(op, input), args[index], op.inputName ?? 'input') : args[index],
        );
  const run = (values: readonly unknown[]): unknown =>
    (op.run as (deps: OperationDeps, ...rest: readonly unknown[]) => unknown)(deps, ...values);
  if (settles === undefined) return run(parse());
  // Async throughout, so a failure is a rejection like every other outcome of a waiting call.
  return (async () => {
    const values = parse();
    const value = await run(values);
    await deps.settled(
      (settles as (control: Control, ...rest: readonly unknown[]) => Clock | undefined)(deps.control, ...values),
    );
    return typeof value === 'function' ? (value as () => unknown)() : value;
  })();
}
