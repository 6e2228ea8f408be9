/** GET /v1/messages/balance: the credits of the authenticated account; never a message id. */

import { Hono, type MiddlewareHandler } from 'hono';
import type { Environment } from '../../domain/message.js';
import type { ApiEnv } from '../context.js';
import { operationDocUrl } from '../documentation.js';
import { requireScope } from '../middleware/auth.js';
import type { FaultGuard } from '../middleware/faults.js';
import { methodNotAllowed } from '../middleware/methods.js';
import { type ResponseSettings, docsBase } from '../respond.js';

export function balanceRoutes(environment: Environment, auth: MiddlewareHandler<ApiEnv>, fault: FaultGuard, settings: ResponseSettings): Hono<ApiEnv> {
  const routes = new Hono<ApiEnv>();
  routes.get('/', auth, fault('balance'), (c) => {
    const account = c.get('account');
    requireScope(account, 'balance');
    return c.json({
      balance: account.environments[environment].balance,
      documentation_url: operationDocUrl(docsBase(c, settings), 'balance'),
    });
  });
  routes.all('/', methodNotAllowed(['GET']));
  return routes;
}
