/** Scenarios: the emulator's (read, replace, or one bundled by name) and each account's own (read, set, clear). */

import { ApiError } from '../../domain/errors.js';
import { bundledScenarioText, bundledScenarios } from '../../engine/scenario/files.js';
import { forOneAccount } from '../../engine/scenario/forOneAccount.js';
import {
  type AccountScenario,
  type Scenario,
  accountScenarioSchema,
  scenarioSchema,
} from '../../engine/scenario/schema.js';
import { announceAccount, findAccount } from '../lookups.js';
import type { OperationDeps } from '../operation.js';
import { readScenario } from '../readScenario.js';

export function getScenario({ scenarios }: OperationDeps): Scenario {
  return scenarios.scenario();
}

/** Replaces the active scenario with YAML or JSON text, or an object; a bad one is refused and changes nothing. */
export function setScenario({ core, scenarios }: OperationDeps, input: unknown): Scenario {
  const scenario = readScenario(input, 'scenario', scenarioSchema);
  const changed = Object.entries(scenario.options ?? {}).filter(
    ([name, value]) => JSON.stringify(value) !== JSON.stringify(core.options[name as keyof typeof core.options]),
  );
  if (changed.length > 0) {
    throw new ApiError(
      'SCENARIO_INVALID',
      `options can only be set when the emulator starts; this scenario changes ${changed.map(([name]) => name).join(', ')}. Start it with the scenario (--scenario) instead.`,
    );
  }
  scenarios.load(scenario);
  return scenario;
}

export function listBundledScenarios(): { scenarios: { name: string; description: string }[] } {
  return { scenarios: bundledScenarios() };
}

export function useBundledScenario(deps: OperationDeps, name: string): Scenario {
  return setScenario(deps, bundledScenarioText(name).text);
}

/** An account's own scenario, defaults filled in; an empty one when none is set. */
export function getAccountScenario({ core }: OperationDeps, apiKey: string): AccountScenario {
  const own = findAccount(core, apiKey).scenario;
  return own === undefined ? { rules: [], replies: [], faults: [], webhooks: [] } : (own as AccountScenario);
}

/**
 * Gives an account its own scenario (YAML or JSON text, or an object), consulted before the emulator's for its
 * requests and legs; it replaces any earlier one and lasts until cleared, or the account is reset or deleted.
 */
export function setAccountScenario(
  { core, scenarios }: OperationDeps,
  apiKey: string,
  input: unknown,
): AccountScenario {
  const account = findAccount(core, apiKey);
  const scenario = readScenario(input, `scenario of ${apiKey}`, accountScenarioSchema);
  scenarios.cancelAccountTimeline(account);
  account.scenario = scenario;
  announceAccount(core, apiKey);
  return scenario;
}

/**
 * Gives an account a bundled scenario, written for the default account, as its own: its rules, replies, faults, delivery
 * behaviours and `magicNumbers` become the account's scenario, its entry for the default account (balance, opt-outs) is
 * applied to this account, and its timeline events run for this account on its clock. A part that cannot be one
 * account's (options, clocks, another account) is refused before anything changes.
 */
export function useBundledAccountScenario(deps: OperationDeps, apiKey: string, name: string): AccountScenario {
  const { core, scenarios } = deps;
  const account = findAccount(core, apiKey);
  const { text, source } = bundledScenarioText(name);
  const { own, entry, timeline } = forOneAccount(readScenario(text, source, scenarioSchema), core.options.apiKey, name);
  const scenario = setAccountScenario(deps, apiKey, own);
  if (entry !== undefined) {
    const { apiKey: _default, ...settings } = entry;
    core.accounts.upsert({ ...settings, apiKey });
  }
  scenarios.armAccountTimeline(account, timeline);
  return scenario;
}

/** Removes an account's own scenario: the emulator's alone decides for it again. */
export function clearAccountScenario({ core, scenarios }: OperationDeps, apiKey: string): void {
  const account = findAccount(core, apiKey);
  scenarios.cancelAccountTimeline(account);
  delete account.scenario;
  announceAccount(core, apiKey);
}
