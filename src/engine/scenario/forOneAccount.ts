/** Splits a bundled scenario, written for the default account, into what one account takes as its own. */

import { ApiError } from '../../domain/errors.js';
import type { AccountScenarioInput, Scenario, TimelineEventSpec } from './schema.js';

/** What an account takes of a scenario written for the default account. */
export interface AccountShare {
  /** Its rules, replies, faults, delivery behaviours, `magicNumbers` and description: the account's own scenario. */
  own: AccountScenarioInput;
  /** Its entry for the default account (balance, opt-outs, …), to apply to the account. */
  entry: Scenario['accounts'][number] | undefined;
  /** Its timeline events, to run for the account on its clock. */
  timeline: readonly TimelineEventSpec[];
}

/**
 * The part of `scenario` one account can take; SCENARIO_INVALID naming what it cannot (options, clocks, another
 * account, an account's clock) before anything changes.
 */
export function forOneAccount(scenario: Scenario, defaultKey: string, name: string): AccountShare {
  const { accounts, timeline, options, clocks, $schema: _schema, version: _version, ...own } = scenario;
  const foreign = [
    ...Object.keys(options ?? {}).map((option) => `options.${option}`),
    ...clocks.map((clock) => `clocks: ${clock.id}`),
    ...accounts
      .filter((entry) => entry.apiKey !== defaultKey || entry.clock !== undefined || entry.scenario !== undefined)
      .map((entry) => `accounts: ${entry.apiKey}`),
    ...timeline
      .map((event) => Object.values(event).find((value) => typeof value === 'object' && value !== null) as object)
      .filter((value) => value !== undefined && 'account' in value && value.account !== defaultKey)
      .map((value) => `timeline: ${(value as { account: string }).account}`),
  ];
  if (foreign.length > 0) {
    throw new ApiError(
      'SCENARIO_INVALID',
      `bundled scenario ${name} holds what one account cannot take (${foreign.join(', ')}); make it the emulator's with PUT /_emulator/scenario/bundled/${name} instead.`,
    );
  }
  return { own, entry: accounts[0], timeline };
}
