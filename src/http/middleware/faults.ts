/** Applies injected faults (latency, errors, rate limits) to matching API requests, after authentication. */

import { setTimeout as sleep } from 'node:timers/promises';
import type { Environment } from '../../domain/message.js';
import type { RouteOperation } from '../../domain/apiOperations.js';
import type { Faults } from '../../engine/scenario/faults.js';
import type { Account } from '../../state/store.js';
import type { EmulatorEmitter } from '../../events.js';

/** Undefined when no fault applies (no promise to wait for); else waits the injected latency and throws the injected error. */
export type FaultGuard = (operation: RouteOperation, environment: Environment, account: Account) => Promise<void> | undefined;

/** Faults are judged at the time of the request's account (its clock: rate-limit windows count on it). */
export function faultGuard(faults: Faults, events: EmulatorEmitter): FaultGuard {
  return (operation, environment, { apiKey: account, clock }) => {
    const at = clock.now();
    const action = faults.apply(operation, environment, account, at);
    if (!action) return undefined;
    // Announced so the timeline report can show which answers were injected.
    events.emit('fault.injected', { at, environment, account, operation, latencyMs: action.latencyMs, code: action.error?.code });
    return (async () => {
      if (action.latencyMs > 0) await sleep(action.latencyMs);
      if (action.error) throw action.error;
    })();
  };
}
