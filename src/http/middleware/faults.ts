/** Applies injected faults (latency, errors, rate limits) to matching API requests, after authentication. */

import type { MiddlewareHandler } from 'hono';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Environment } from '../../domain/message.js';
import type { Faults, Operation } from '../../engine/scenario/faults.js';
import type { Clock } from '../../state/clock.js';
import type { EmulatorEmitter } from '../../events.js';
import type { ApiEnv } from '../context.js';

export type FaultGuard = (operation: Operation) => MiddlewareHandler<ApiEnv>;

export function faultGuard(faults: Faults, clock: Clock, events: EmulatorEmitter, environment: Environment): FaultGuard {
  return (operation) => async (c, next) => {
    const account = c.get('account').apiKey;
    const at = clock.now();
    const action = faults.apply(operation, environment, account, at);
    if (action) {
      // Announced so the timeline report can show which answers were injected.
      events.emit('fault.injected', { at, environment, account, operation, latencyMs: action.latencyMs, code: action.error?.code });
      if (action.latencyMs > 0) await sleep(action.latencyMs);
      if (action.error) throw action.error;
    }
    await next();
  };
}
