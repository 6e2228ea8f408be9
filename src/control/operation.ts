/**
 * What a control operation is: a route (method, path, how the handle's arguments travel, input, summary, the handler
 * it runs) or a shortcut onto one. The table (operationTable.ts) holds the rows; this file holds only their shape.
 */

import type { z } from 'zod';
import type { Core } from '../engine/core.js';
import type { ScenarioRuntime } from '../engine/scenario/runtime.js';
import type { RequestJournal } from '../journal/requestJournal.js';
import type { Clock } from '../state/clock.js';
import type { ListItems } from '../state/snapshot.js';
import type { AnswerName } from './answerSchemas.js';
import type { ArgSpec } from './call.js';
import type { ControlHandle } from './handle.js';
import type { WaitView } from './views.js';
import type { WaitStatus } from './waitFor.js';

/** What the handlers reach: the engine's services, the scenario in force, the request journal, and the wait for a message. */
export interface OperationDeps {
  core: Core;
  scenarios: ScenarioRuntime;
  journal: RequestJournal;
  /** `waitFor(id).toReach(status)` on the in-process handle, answering where the message's clock then stands. */
  waitFor(messageId: string, status: WaitStatus, within: string | number | undefined): Promise<WaitView>;
  /**
   * Over HTTP, the `X-Emulator-Event-Id` of a request that is one of the emulator's own webhook posts (relayed back into
   * the control API): the webhook event, and so the account, the call comes from.
   */
  callerEvent?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table is checked member by member against ControlHandle below
type Fn = (...args: any[]) => unknown;

/** An operation with its own HTTP route. */
export interface ControlRoute<F extends Fn = Fn> {
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
  settles?(deps: OperationDeps, ...args: Parameters<F>): Clock | undefined;
  /** Open without the control token. */
  open?: boolean;
  /** The handler: one function of `handlers/`, given the parsed arguments. */
  run(deps: OperationDeps, ...args: Parameters<F>): unknown;
  /**
   * Over HTTP, instead of `run`, for a body too large to take in one go (a snapshot): given `parse`, which parses the
   * body in slices as it arrives (handing the elements of the top-level lists `items` wants to it as they are parsed),
   * and `due()`, which gives the event loop a turn when a slice's time is up, so other requests are answered.
   */
  runInSlices?(
    deps: OperationDeps,
    parse: (items: ListItems) => Promise<unknown>,
    due: () => Promise<void>,
  ): Promise<unknown>;
}

/** A handle member that is another operation with its arguments filled in (`clock.advance('1m')` is `clock.move({ advance: '1m' })`). */
export interface ControlShortcut<F extends Fn = Fn> {
  via: OperationId;
  summary: string;
  map(...args: Parameters<F>): unknown[];
  /** Turns the target's answer into this member's (both handles apply it; the HTTP answer stays the target's). */
  answer?(output: never): Awaited<ReturnType<F>>;
}

export type ControlOperation<F extends Fn = Fn> = ControlRoute<F> | ControlShortcut<F>;

type Local = ControlHandle<'local'>;
/** The table has exactly the members of ControlHandle, each typed by that member's signature. */
export type OperationTable = {
  [K in keyof Local]: Local[K] extends Fn
    ? ControlOperation<Local[K]>
    : { [N in keyof Local[K]]: Local[K][N] extends Fn ? ControlOperation<Local[K][N]> : never };
};

/** `accounts.update`, `reset`, …: a handle member's dotted name. */
export type OperationId = {
  [K in keyof Local & string]: Local[K] extends Fn ? K : `${K}.${keyof Local[K] & string}`;
}[keyof Local & string];

/** A list's filter with the page it asks for (`pages: true`), as its handler receives it. */
export type Paged<T = object> = T & { page: number; limit: number };
