/** Builds a control handle from the operations table, given how one route operation is called. */

import type { ControlHandle, HandleMode } from './handle.js';
import type { ControlRoute, OperationId } from './operation.js';
import { controlRouteOf, isOperation, isRoute, operationList } from './operationList.js';
import { operations } from './operationTable.js';

/** Calls one route operation with handle arguments (in process, or over HTTP). */
export type OperationCaller = (op: ControlRoute, args: readonly unknown[]) => unknown;

export function buildHandle<M extends HandleMode>(call: OperationCaller): ControlHandle<M> {
  const member = (operationId: OperationId) => {
    const op = operationList().find(([entryId]) => entryId === operationId)?.[1];
    if (op === undefined) throw new Error(`sms-emulator: no operation ${operationId}`);
    if (isRoute(op)) return (...args: unknown[]) => call(op, args);
    const target = controlRouteOf(op.via);
    const map = op.map as (...args: unknown[]) => unknown[];
    const answer = op.answer as ((output: unknown) => unknown) | undefined;
    if (answer === undefined) return (...args: unknown[]) => call(target, map(...args));
    return (...args: unknown[]) => {
      const output = call(target, map(...args));
      return output instanceof Promise ? output.then(answer) : answer(output);
    };
  };
  const handle: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(operations)) {
    if (isOperation(entry)) handle[name] = member(name as OperationId);
    else
      handle[name] = Object.fromEntries(
        Object.keys(entry).map((key) => [key, member(`${name}.${key}` as OperationId)]),
      );
  }
  return handle as unknown as ControlHandle<M>;
}
