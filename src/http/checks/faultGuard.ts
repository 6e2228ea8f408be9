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

/** Where an injected fault met a request: when (on the account's clock), in which environment, which account and operation. */
export interface FaultSite {
  at: number;
  environment: Environment;
  account: Account;
  operation: RouteOperation;
}

/**
 * Announces a fault that acted on a request, a scenario's or the one-off outcome header's, so the timeline report
 * shows which answers were injected: one payload for both.
 */
export function announceFault(
  events: EmulatorEmitter,
  { at, environment, account, operation }: FaultSite,
  { latencyMs = 0, error, network }: Partial<FaultAction>,
): void {
  events.emit('fault.injected', {
    at,
    environment,
    account: account.apiKey,
    operation,
    latencyMs,
    code: error?.code,
    network: network?.kind,
  });
}

/** Faults are judged at the time of the request's account (its clock: rate-limit windows count on it). */
export function faultGuard(faults: FaultSource, events: EmulatorEmitter, wallTimers: WallTimers): FaultGuard {
  return (operation, environment, account, recipients) => {
    const at = account.clock.now();
    const action = faults.applyFaults(operation, environment, account, at, recipients);
    if (!action) return undefined;
    announceFault(events, { at, environment, account, operation }, action);
    return (async () => {
      if (action.latencyMs > 0) await wallTimers.sleep(action.latencyMs);
      if (action.error) throw action.error;
      return action.network;
    })();
  };
}
