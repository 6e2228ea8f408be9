/** Injected faults: errors, latency and per-key rate limits for matching API requests. */

import type { RouteOperation } from '../../domain/apiOperations.js';
import { ApiError, errorCatalogue } from '../../domain/errors.js';
import type { Environment } from '../../domain/message.js';
import { parseDuration } from '../../domain/time.js';
import type { Random } from '../../state/random.js';
import { type NetworkFailure, defaultTrickleMs } from './networkFaults.js';
import { recipientTest } from './match.js';
import type { ScenarioFault } from './schema.js';

export interface FaultAction {
  latencyMs: number;
  /** The injected API error; a fault with one gives no `network`. */
  error?: ApiError;
  /** The injected transport failure instead of an answer. */
  network?: NetworkFailure;
}

/** Two faults' actions on one request as one: latencies add up, the first error or network failure wins. */
export function mergeFaultActions(first: FaultAction, second: FaultAction): FaultAction {
  const merged: FaultAction = { latencyMs: first.latencyMs + second.latencyMs };
  const outcome = first.error || first.network ? first : second;
  if (outcome.error) merged.error = outcome.error;
  if (outcome.network) merged.network = outcome.network;
  return merged;
}

interface FaultState {
  spec: ScenarioFault;
  name: string | undefined;
  enabled: boolean;
  remaining: number | undefined;
  latencyMs: number;
  network: NetworkFailure | undefined;
  windows: Map<string, { start: number; count: number }>;
  /** Matching requests so far, for `nth` and `every`. */
  seen: number;
  /** The fault's recipient test, when it matches by recipient. */
  recipient: ((number: string) => boolean) | undefined;
}

export class Faults {
  private states: FaultState[] = [];
  /** Whether a fault matches by recipient, so a send's body is read before the faults are asked. */
  readsRecipients = false;

  constructor(private readonly random: Random) {}

  load(faults: readonly ScenarioFault[]): void {
    this.states = faults.map((spec) => ({
      spec,
      name: spec.name,
      enabled: spec.enabled,
      remaining: spec.count,
      latencyMs: spec.latency === undefined ? 0 : (parseDuration(spec.latency) ?? 0),
      network: spec.network && {
        kind: spec.network,
        trickleMs: spec.trickle === undefined ? defaultTrickleMs : (parseDuration(spec.trickle) ?? defaultTrickleMs),
      },
      windows: new Map(),
      seen: 0,
      recipient: spec.match.recipient === undefined ? undefined : recipientTest(spec.match.recipient),
    }));
    this.readsRecipients = this.states.some((state) => state.recipient !== undefined);
  }

  /** Turns a named fault on or off; false when no fault has that name. */
  toggle(name: string, enabled: boolean): boolean {
    const matching = this.states.filter((state) => state.name === name);
    for (const state of matching) state.enabled = enabled;
    return matching.length > 0;
  }

  /**
   * What to do to a request: the summed latency and the first error or network failure of the matching faults.
   * `recipients` are those a send or edit names (undefined for other operations, or before its body is read).
   */
  apply(
    operation: RouteOperation,
    environment: Environment,
    apiKey: string,
    now: number,
    recipients?: readonly string[],
  ): FaultAction | undefined {
    let action: FaultAction | undefined;
    for (const state of this.states) {
      if (!state.enabled || !matches(state.spec, operation, environment, apiKey)) continue;
      if (state.recipient !== undefined && !recipients?.some(state.recipient)) continue;
      if (!inTurn(state)) continue;
      if (state.spec.probability !== undefined && this.random.next() >= state.spec.probability) continue;
      // A rate limit only acts on the requests over it; other faults act on every match.
      const error = state.spec.rateLimit ? this.rateLimit(state, apiKey, now) : injectedError(state.spec);
      if (state.spec.rateLimit && !error) continue;
      action ??= { latencyMs: 0 };
      action.latencyMs += state.latencyMs;
      if (action.error === undefined && action.network === undefined) {
        if (error) action.error = error;
        else if (state.network) action.network = state.network;
      }
      if (state.remaining !== undefined && --state.remaining <= 0) state.enabled = false;
    }
    return action;
  }

  private rateLimit(state: FaultState, apiKey: string, now: number): ApiError | undefined {
    const limit = state.spec.rateLimit!;
    const perMs = parseDuration(limit.per) ?? 1000;
    let window = state.windows.get(apiKey);
    if (!window || now >= window.start + perMs) {
      window = { start: now, count: 0 };
      state.windows.set(apiKey, window);
    }
    window.count += 1;
    if (window.count <= limit.requests) return undefined;
    const retryAfter = Math.max(1, Math.ceil((window.start + perMs - now) / 1000));
    return new ApiError(
      'TOO_MANY_REQUESTS',
      `More than ${limit.requests} requests per ${limit.per} for this API key; retry after ${retryAfter} s.`,
      {
        'Retry-After': String(retryAfter),
      },
    );
  }
}

/** Counts a match; true when the rule's `nth` or `every` picks this one (always without them): faults and delivery behaviours alike. */
export function inTurn(state: { seen: number; spec: { nth?: number; every?: number } }): boolean {
  state.seen += 1;
  const { nth, every } = state.spec;
  if (nth !== undefined) return state.seen === nth;
  return every === undefined || state.seen % every === 0;
}

function matches(spec: ScenarioFault, operation: RouteOperation, environment: Environment, apiKey: string): boolean {
  const wanted = spec.match.operation;
  return (
    (wanted === undefined || (Array.isArray(wanted) ? wanted.includes(operation) : wanted === operation)) &&
    (spec.match.environment === undefined || spec.match.environment === environment) &&
    (spec.match.account === undefined || spec.match.account === apiKey)
  );
}

function injectedError(spec: ScenarioFault): ApiError | undefined {
  if (!spec.error) return undefined;
  const { code, status } = spec.error;
  return new ApiError(code, `Injected fault: ${errorCatalogue[code].description}`, {}, status);
}
