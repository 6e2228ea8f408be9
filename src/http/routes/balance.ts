/** GET /v1/messages/balance: the credits of the authenticated account; never a message id. */

import type { ApiRoute, MethodList } from '../apiRoute.js';
import { json, methodsAt, routeOf } from '../apiRoute.js';
import { operationDocUrl } from '../documentation.js';
import { requireScope } from '../checks/authenticate.js';

export function balanceRoutes(): (ApiRoute | MethodList)[] {
  return [
    {
      ...routeOf('balance'),
      serve: (call) => {
        const { account, environment } = call;
        requireScope(account, 'balance');
        return json({
          balance: account.environments[environment].balance,
          documentation_url: operationDocUrl(call.docsBase(), 'balance'),
        });
      },
    },
    methodsAt('balance'),
  ];
}
