/** Runs one route operation: its input parsed once, and the webhook tries it caused waited for once. */

import type { z } from 'zod';
import { pageFields } from '../domain/list.js';
import type { Clock } from '../state/clock.js';
import type { ArgSpec } from './call.js';
import type { ControlRoute, OperationDeps } from './operation.js';
import { parseControl } from './parseControl.js';

/** The schema of an operation's input argument: the input, with `page` and `limit` for a list (built once per operation). */
const inputSchemas = new WeakMap<ControlRoute, z.ZodType>();
function inputSchema(op: ControlRoute, input: z.ZodType): z.ZodType {
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
 * after the moves under way on its clock have ended and the webhooks in flight have been tried (then reads its answer,
 * when `run` gave a function for it).
 */
export function runOperation(op: ControlRoute, deps: OperationDeps, args: readonly unknown[]): unknown {
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
    const clock = (settles as (deps: OperationDeps, ...rest: readonly unknown[]) => Clock | undefined)(deps, ...values);
    await deps.core.clocks.movesEnded(clock);
    await deps.core.webhooks.settled(clock);
    return typeof value === 'function' ? (value as () => unknown)() : value;
  })();
}
