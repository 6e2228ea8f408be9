/** The operations table read as a list: every operation with its dotted id, and the route behind a shortcut. */

import type { ControlOperation, ControlRoute, OperationId } from './operation.js';
import { operations } from './operationTable.js';

/** Every operation with its dotted id, in table order. */
export function operationList(): [OperationId, ControlOperation][] {
  const list: [OperationId, ControlOperation][] = [];
  for (const [name, entry] of Object.entries(operations)) {
    if (isOperation(entry)) list.push([name as OperationId, entry]);
    else
      for (const [member, op] of Object.entries(entry))
        list.push([`${name}.${member}` as OperationId, op as ControlOperation]);
  }
  return list;
}

export function isOperation(entry: object): entry is ControlOperation {
  return 'run' in entry || 'via' in entry;
}

export function isRoute(op: ControlOperation): op is ControlRoute {
  return 'run' in op;
}

/** The route operation behind an id (a shortcut's target). */
export function controlRouteOf(operationId: OperationId): ControlRoute {
  const op = operationList().find(([entryId]) => entryId === operationId)?.[1];
  if (op === undefined || !isRoute(op)) throw new Error(`sms-emulator: no route operation ${operationId}`);
  return op;
}
