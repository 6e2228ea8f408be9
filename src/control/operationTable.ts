/**
 * The one table of control operations, composed of the rows each file of `handlers/` exports beside its handlers
 * (method, path, how the handle's arguments travel, input, summary, the handler it runs). The HTTP routes, their
 * Allow headers, both handles, the docs table and the OpenAPI document come from it; `satisfies` holds it to the handle.
 */

import type { OperationTable } from './operation.js';
import { accountsRows, signRow } from './handlers/accounts.js';
import { clockRows } from './handlers/clock.js';
import { clocksRows } from './handlers/clocks.js';
import { costRow } from './handlers/cost.js';
import { messagesRows } from './handlers/messages.js';
import { optOutsRows } from './handlers/optOuts.js';
import { repliesRows } from './handlers/replies.js';
import { requestsRows } from './handlers/requests.js';
import { accountScenarioRows, scenarioRows } from './handlers/scenario.js';
import { healthRow, limitsRow, resetRow, restoreRow, snapshotRow } from './handlers/state.js';
import { receiverCheckRow, webhooksRows } from './handlers/webhooks.js';
import { worldsRows } from './handlers/worlds.js';

export const operations = {
  health: healthRow,
  limits: limitsRow,
  clock: clockRows,
  clocks: clocksRows,
  worlds: worldsRows,
  accounts: { ...accountsRows, ...accountScenarioRows },
  messages: messagesRows,
  replies: repliesRows,
  webhooks: webhooksRows,
  receiverCheck: receiverCheckRow,
  scenario: scenarioRows,
  optOuts: optOutsRows,
  requests: requestsRows,
  sign: signRow,
  cost: costRow,
  reset: resetRow,
  snapshot: snapshotRow,
  restore: restoreRow,
} satisfies OperationTable;
