/** The control API under /_emulator, derived route by route from the operations table (Allow headers included). */

import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { ArgSpec } from '../../control/call.js';
import { routerPath } from '../apiRoute.js';
import type { ControlRoute, OperationDeps } from '../../control/operation.js';
import { isRoute, operationList } from '../../control/operationList.js';
import { runOperation } from '../../control/runOperation.js';
import { bodyChunks, decodeControlBody, decodeControlText, readBody } from '../body.js';
import { parseJsonStream, slicer } from '../slicedJson.js';
import { requireControlToken } from '../middleware/controlToken.js';
import { methodNotAllowed } from '../middleware/methods.js';
import { requireSameOrigin } from '../middleware/sameOrigin.js';

export interface ControlRouteDeps extends OperationDeps {
  controlToken: string | undefined;
  /** The publicUrl option's origin, which the Origin check counts as the emulator's own. */
  publicOrigin: string | undefined;
}

/** Reads handle arguments back out of a request, in the order the operation's specs give. */
async function decodeCall(c: Context, specs: readonly ArgSpec[]): Promise<unknown[]> {
  const args: unknown[] = [];
  for (const spec of specs) {
    if (spec.in === 'path') args.push(c.req.param(spec.name));
    else if (spec.in === 'query') args.push(spec.name === undefined ? c.req.query() : c.req.query(spec.name));
    else if (spec.in === 'text') args.push(decodeControlText(await readBody(c)));
    else args.push(decodeControlBody(await readBody(c)));
  }
  return args;
}

/** Static segments before parameters, so `/webhooks/chaos` is not read as the event id "chaos". */
function bySpecificity(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const leftParam = (left[i] as string).startsWith('{');
    const rightParam = (right[i] as string).startsWith('{');
    if (leftParam !== rightParam) return leftParam ? 1 : -1;
  }
  return 0;
}

/** The control routes: path → operations, most specific path first. */
export function controlRouteTable(): [string, ControlRoute[]][] {
  const byPath = new Map<string, ControlRoute[]>();
  for (const [, op] of operationList()) if (isRoute(op)) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  return [...byPath].sort(([a], [b]) => bySpecificity(a, b));
}

export function controlRoutes({ controlToken, publicOrigin, ...deps }: ControlRouteDeps): Hono {
  const routes = new Hono();
  // Open operations (health) skip the token, never the Origin check.
  const sameOrigin = requireSameOrigin(publicOrigin);
  const guard = requireControlToken(controlToken);
  const handler =
    (op: ControlRoute): MiddlewareHandler =>
    async (c: Context) => {
      // A snapshot import puts its state in place in slices; every other request meanwhile is refused (retryably, so
      // that none sees or changes half a state), health is not, and another import takes its turn after it.
      if (!op.open && op.runInSlices === undefined) deps.core.imports.refuseWhileRunning();
      let result: unknown;
      if (op.runInSlices) {
        // Parsed as the chunks arrive, never joined: the import holds the values it makes, not the body as well.
        const due = slicer();
        result = await op.runInSlices(deps, (items) => parseJsonStream(bodyChunks(c), due, items), due);
      } else {
        // A webhook post of the emulator's own that reaches a control route carries its event: the call's world.
        const callerEvent = c.req.header('x-emulator-event-id');
        const callDeps = callerEvent === undefined ? deps : { ...deps, callerEvent };
        result = await runOperation(op, callDeps, await decodeCall(c, op.args));
      }
      const status = op.status ?? 200;
      return status === 204 ? c.body(null, 204) : c.json(result as object, status);
    };
  // Each path's 405 comes right after its methods, so `GET /webhooks/settle` is a 405 rather than the event "settle".
  for (const [path, ops] of controlRouteTable()) {
    for (const op of ops)
      routes.on(op.method, [routerPath(path)], sameOrigin, ...(op.open ? [handler(op)] : [guard, handler(op)]));
    routes.all(routerPath(path), methodNotAllowed(ops.map((op) => op.method)));
  }
  return routes;
}
