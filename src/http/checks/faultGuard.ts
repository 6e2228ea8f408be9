/** Applies injected faults (latency, errors, rate limits, network failures) to matching API requests, after authentication. */

import type { Environment } from '../../domain/message.js';
import type { RouteOperation } from '../../domain/apiOperations.js';
import type { FaultAction } from '../../engine/scenario/faults.js';
import type { NetworkFailure } from '../../engine/scenario/networkFaults.js';
import type { Account } from '../../state/store.js';
import type { EmulatorEmitter } from '../../events.js';
import type { WallTimers } from '../../state/wallTimers.js';

/**
 * Undefined when no fault applies (no promise to wait for); else waits the injected latency, then throws the injected
 * error or resolves with the network failure the transport is to show (undefined: answer as usual).
 */
export type FaultGuard = (
  operation: RouteOperation,
  environment: Environment,
  account: Account,
  recipients?: readonly string[],
) => Promise<NetworkFailure | undefined> | undefined;

/** Where the faults for a request come from: the account's own scenario, then the emulator's. */
export interface FaultSource {
  applyFaults(
    operation: RouteOperation,
    environment: Environment,
    account: Account,
    now: number,
    recipients?: readonly string[],
  ): FaultAction | undefined;
  /** Whether a fault the account's requests meet matches by recipient (a send's body is then read first). */
  faultsReadRecipients(account: Account): boolean;
}

/** Faults are judged at the time of the request's account (its clock: rate-limit windows count on it). */
export function faultGuard(faults: FaultSource, events: EmulatorEmitter, wallTimers: WallTimers): FaultGuard {
  return (operation, environment, account, recipients) => {
    const at = account.clock.now();
    const action = faults.applyFaults(operation, environment, account, at, recipients);
    if (!action) return undefined;
    // Announced so the timeline report can show which answers were injected.
    events.emit('fault.injected', {
      at,
      environment,
      account: account.apiKey,
      operation,
      latencyMs: action.latencyMs,
      code: action.error?.code,
      network: action.network?.kind,
    });
    return (async () => {
      if (action.latencyMs > 0) await wallTimers.sleep(action.latencyMs);
      if (action.error) throw action.error;
      return action.network;
    })();
  };
}
