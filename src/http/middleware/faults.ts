/** Applies injected faults (latency, errors, rate limits) to matching API requests, after authentication. */

import type { MiddlewareHandler } from 'hono';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Environment } from '../../domain/message.js';
import type { Faults, Operation } from '../../engine/scenario/faults.js';
import type { Clock } from '../../state/clock.js';
import type { ApiEnv } from '../context.js';

export type FaultGuard = (operation: Operation) => MiddlewareHandler<ApiEnv>;

export function faultGuard(faults: Faults, clock: Clock, environment: Environment): FaultGuard {
  return (operation) => async (c, next) => {
    const action = faults.apply(operation, environment, c.get('account').apiKey, clock.now());
    if (action) {
      if (action.latencyMs > 0) await sleep(action.latencyMs);
      if (action.error) throw action.error;
    }
    await next();
  };
}
