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
import type { OperationTable } from '../operation.js';
import { key, scenarioName } from '../argSpecs.js';
import type { BundledScenariosView } from '../views.js';

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

export function listBundledScenarios(): BundledScenariosView {
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
  if (entry !== undefined) core.accounts.checkSpec(entry);
  for (const event of timeline) core.accounts.checkUrl(event.webhookUrl?.url, 'timeline webhook URL');
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

export const accountScenarioRows = {
  getScenario: {
    method: 'GET',
    path: '/accounts/{key}/scenario',
    answer: 'AccountScenario',
    args: [key],
    summary: "The account's own scenario (rules, replies, faults), defaults filled in; empty lists when it has none.",
    run: getAccountScenario,
  },
  setScenario: {
    method: 'PUT',
    path: '/accounts/{key}/scenario',
    answer: 'AccountScenario',
    args: [key, { in: 'text' }],
    summary:
      "Gives the account its own scenario (YAML or JSON body: `rules`, `replies`, `faults`), consulted before the emulator's for its requests and legs only; it replaces an earlier one and is gone when cleared, or the account is reset or deleted. A bad one is refused and changes nothing.",
    run: setAccountScenario,
  },
  useBundledScenario: {
    method: 'PUT',
    path: '/accounts/{key}/scenario/bundled/{name}',
    answer: 'AccountScenario',
    args: [key, scenarioName],
    summary:
      'Gives the account a bundled scenario (`happy-path`, `credit-exhaustion`, `degraded-api`, …; `GET /scenario/bundled` lists them), written for the default account, as its own: its rules, replies, faults and delivery behaviours as `PUT /accounts/{key}/scenario` would set them, its balance and opt-outs applied to this account, its timeline events run for this account on its clock.',
    run: useBundledAccountScenario,
  },
  clearScenario: {
    method: 'DELETE',
    path: '/accounts/{key}/scenario',
    args: [key],
    status: 204,
    summary: "Removes the account's own scenario (204, no body): the emulator's alone decides for it again.",
    run: clearAccountScenario,
  },
} satisfies Partial<OperationTable['accounts']>;

export const scenarioRows = {
  get: {
    method: 'GET',
    path: '/scenario',
    answer: 'Scenario',
    args: [],
    summary: 'The active scenario, defaults filled in.',
    run: getScenario,
  },
  set: {
    method: 'PUT',
    path: '/scenario',
    answer: 'Scenario',
    args: [{ in: 'text' }],
    summary: 'Replaces the active scenario (YAML or JSON body); a bad one is refused and changes nothing.',
    run: setScenario,
  },
  bundled: {
    method: 'GET',
    path: '/scenario/bundled',
    answer: 'BundledScenarios',
    args: [],
    summary:
      'The scenarios shipped with the emulator, by name with what each does: `{"scenarios": [{"name": "happy-path", "description": …}, …]}`.',
    run: listBundledScenarios,
  },
  useBundled: {
    method: 'PUT',
    path: '/scenario/bundled/{name}',
    answer: 'Scenario',
    args: [scenarioName],
    summary:
      'Makes a bundled scenario the active one by name (no file needed, outside a checkout too): as `PUT /scenario` with its YAML; an unknown name is CONTROL_NOT_FOUND listing the names.',
    run: useBundledScenario,
  },
} satisfies OperationTable['scenario'];
