/**
 * The client commands (`sms-emulator clock advance 1h`), one per control operation, derived from the operations table:
 * where each handle argument comes from on the command line (a positional, a flag, the flags as an object, a file).
 */

import { z } from 'zod';
import type { ControlOperation, OperationId } from '../control/operation.js';
import { controlRouteOf, isRoute, operationList } from '../control/operationList.js';

/**
 * Friendly positionals, the only per-operation knowledge here. For a shortcut they name its handle arguments after the
 * path parameters of the operation it calls (`clock advance <duration>`); for a route operation they name fields of its
 * body or query (`replies inject <id> <text>`). Path parameters are positionals without a hint.
 */
const positionalHints: Partial<Record<OperationId, readonly string[]>> = {
  'clock.advance': ['duration'],
  'clock.set': ['instant'],
  'clocks.advance': ['duration'],
  'clocks.set': ['instant'],
  'messages.forceStatus': ['status'],
  'replies.inject': ['text'],
};

/** One positional: fills handle argument `arg` (or its field `field`); `file` reads the named file ('-' is standard input). */
export interface Positional {
  name: string;
  arg: number;
  field?: string;
  file?: boolean;
}

export interface Command {
  /** `clock advance`, `reset`. */
  name: string;
  operationId: OperationId;
  summary: string;
  positionals: Positional[];
  /** Handle arguments given by a flag of their own (`--account` of `sign`). */
  scalarFlags: { name: string; arg: number }[];
  /** The handle argument the other `--field value` flags build as an object, with the schema its fields are read by. */
  fields?: { arg: number; shape?: Record<string, z.ZodType>; paged: boolean };
  /** A shortcut's mapping to the operation it calls: the flags are checked against what it passes on (a dropped one is refused). */
  mapping?: (...args: unknown[]) => unknown[];
  /** A shortcut's target operation. */
  via?: OperationId;
}

/** `forceStatus` → `force-status`, `optOuts` → `opt-outs`. */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> | undefined {
  return schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : undefined;
}

function commandOf(operationId: OperationId, op: ControlOperation): Command {
  const hints = positionalHints[operationId] ?? [];
  const command: Command = {
    name: operationId.split('.').map(kebab).join(' '),
    operationId,
    summary: op.summary,
    positionals: [],
    scalarFlags: [],
  };
  if (!isRoute(op)) {
    const target = controlRouteOf(op.via);
    const names = [...target.args.flatMap((spec) => (spec.in === 'path' ? [spec.name] : [])), ...hints];
    command.mapping = op.map as (...args: unknown[]) => unknown[];
    command.via = op.via;
    command.positionals = names.map((name, arg) => ({ name, arg }));
    command.fields = { arg: names.length, shape: shapeOf(target.input), paged: false };
    return command;
  }
  op.args.forEach((spec, arg) => {
    if (spec.in === 'path') command.positionals.push({ name: spec.name, arg });
    else if (spec.in === 'text') command.positionals.push({ name: 'file', arg, file: true });
    else if (spec.in === 'query' && spec.name !== undefined) command.scalarFlags.push({ name: spec.name, arg });
    else {
      command.fields = { arg, shape: shapeOf(op.input), paged: spec.in === 'query' };
      for (const field of hints) command.positionals.push({ name: field, arg, field });
    }
  });
  return command;
}

/** Every control operation's command, in table order. */
export function commandList(): Command[] {
  return operationList().map(([operationId, op]) => commandOf(operationId, op));
}
