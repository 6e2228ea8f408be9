/** A test's whole world in one call: a test clock, an account on it and the account's own scenario, all or nothing. */

import { ApiError } from '../../domain/errors.js';
import { accountView } from '../../engine/inspection.js';
import { accountScenarioSchema } from '../../engine/scenario/schema.js';
import type { WorldInput } from '../inputs.js';
import { announceAccount } from '../lookups.js';
import type { OperationDeps } from '../operation.js';
import { readScenario } from '../readScenario.js';
import { type WorldView, testClockView } from '../views.js';
import type { OperationTable } from '../operation.js';
import { worldInput } from '../inputs.js';
import { body } from '../argSpecs.js';

/**
 * Makes the clock, then the account on it (its key drawn from the clock's id when not given). Everything is checked
 * first: a refused world leaves nothing behind.
 */
export function createWorld(
  { core }: OperationDeps,
  { name, startTime, account = {}, scenario }: WorldInput,
): WorldView {
  const own = scenario === undefined ? undefined : readScenario(scenario, 'world scenario', accountScenarioSchema);
  const { store, clocks } = core;
  if (account.apiKey !== undefined && store.accounts.has(account.apiKey))
    throw new ApiError('CONTROL_CONFLICT', `An account with API key "${account.apiKey}" already exists.`);
  core.accounts.checkSpec(account);
  // Every world's webhooks are signed, so a test's catcher can verify them: its own secret unless it names one (null: unsigned).
  const webhookSigningSecret =
    account.webhookSigningSecret === undefined ? core.accounts.drawWebhookSecret() : account.webhookSigningSecret;
  for (;;) {
    const clock = clocks.create({ startTime: startTime === undefined ? undefined : Date.parse(startTime), name });
    const apiKey = account.apiKey ?? `pk_test_${(clock.id as string).slice('clock_'.length)}`;
    // A drawn key someone already took by hand: draw again rather than refuse a request that named none.
    if (store.accounts.has(apiKey)) {
      clocks.delete(clock);
      continue;
    }
    const created = core.accounts.create({
      ...account,
      webhookSigningSecret,
      apiKey,
      clock: clock.id,
      ...(own === undefined ? {} : { scenario: own }),
    });
    announceAccount(core, apiKey);
    return { clock: testClockView(core, clock), account: accountView(created) };
  }
}

export const worldsRows = {
  create: {
    method: 'POST',
    path: '/worlds',
    answer: 'World',
    args: [body],
    input: worldInput,
    inputName: 'world',
    status: 201,
    summary:
      'A test\'s world in one call: `{"name"?, "startTime"?, "account"?: {…account fields, apiKey drawn when absent, webhookSigningSecret drawn (whsec_…, the same for a seed) when absent}, "scenario"?: {…}}` makes a test clock, an account on it and its own scenario, all or nothing; answers `{clock, account}`. `DELETE /clocks/{id}` deletes it all.',
    run: createWorld,
  },
} satisfies OperationTable['worlds'];
