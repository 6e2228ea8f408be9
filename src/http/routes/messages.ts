/** The /v1/messages resource: send, schedule, list, read, edit and delete. */

import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import { quoteExcerpt } from '../../domain/excerpt.js';
import { parseQueryInteger } from '../../domain/queryInteger.js';
import type { Environment } from '../../domain/message.js';
import { renderMessage } from '../../domain/representation.js';
import { listLinks } from '../../domain/links.js';
import { type Messaging, defaultPageSize, maxPageSize } from '../../engine/messages.js';
import { decodeBody, readBody } from '../body.js';
import type { ApiEnv } from '../context.js';
import { operationDocUrl } from '../documentation.js';
import { requireScope } from '../middleware/auth.js';
import { methodNotAllowed } from '../middleware/methods.js';
import type { FaultGuard } from '../middleware/faults.js';
import { outcomeHeaderName, parseOutcomeHeader } from '../../engine/scenario/outcomeHeader.js';
import { verifySignature } from '../middleware/signature.js';
import { type ResponseSettings, apiBase, docsBase, errorResponse } from '../respond.js';

export interface MessagesRouteDeps {
  messaging: Messaging;
  auth: MiddlewareHandler<ApiEnv>;
  fault: FaultGuard;
  outcomeHeader: boolean;
  settings: ResponseSettings;
  requireSignatureOnPatch: boolean;
  noMessagesStatus: number;
}

export function messagesRoutes(environment: Environment, deps: MessagesRouteDeps): Hono<ApiEnv> {
  const { messaging, settings, auth, fault } = deps;
  const routes = new Hono<ApiEnv>();
  const render = (c: Context<ApiEnv>, message: Parameters<typeof renderMessage>[0], operation: Parameters<typeof operationDocUrl>[1]) =>
    renderMessage(
      message,
      { apiBase: apiBase(c, settings, environment), offsetMinutes: settings.offsetMinutes },
      operationDocUrl(docsBase(c, settings), operation),
    );

  routes.post('/', auth, fault('send'), async (c) => {
    const account = c.get('account');
    requireScope(account, 'send');
    const forced = deps.outcomeHeader ? c.req.header(outcomeHeaderName) : undefined;
    const outcome = forced === undefined ? undefined : parseOutcomeHeader(forced);
    const fields = await readFields(c);
    verifySignature(account, fields, c.req.header('signature'), true);
    const message = messaging.send(account, environment, fields, outcome);
    return c.json(render(c, message, message.scheduleAt === null ? 'send' : 'schedule'), 201);
  });

  routes.get('/', auth, fault('list'), (c) => {
    const account = c.get('account');
    requireScope(account, 'read');
    const query = c.req.query();
    const page = messaging.list(account, environment, {
      recipient: nonBlank(query.recipient),
      status: nonBlank(query.status),
      search: nonBlank(query.search),
      page: positiveInteger(query.page, 'page', 1),
      limit: Math.min(maxPageSize, positiveInteger(query.limit, 'limit', defaultPageSize)),
    });
    if (page.items.length === 0) {
      const error = new ApiError(
        'NO_SMS_MESSAGES',
        page.totalItems === 0 ? 'There are no messages for this request.' : `Page ${page.page} is past the last page (${page.totalPages}).`,
      );
      return errorResponse(c, error, settings, deps.noMessagesStatus);
    }
    const base = apiBase(c, settings, environment);
    return c.json({
      list: page.items.map((message) => renderMessage(message, { apiBase: base, offsetMinutes: settings.offsetMinutes })),
      page: page.page,
      limit: page.limit,
      total_pages: page.totalPages,
      total_items: page.totalItems,
      _links: listLinks(base, { ...query, limit: String(page.limit) }, page.page, page.totalPages),
      documentation_url: operationDocUrl(docsBase(c, settings), 'list'),
    });
  });

  routes.get('/:id', auth, fault('get'), (c) => {
    const account = c.get('account');
    requireScope(account, 'read');
    return c.json(render(c, messaging.get(account, environment, c.req.param('id')), 'get'));
  });

  routes.patch('/:id', auth, fault('edit'), async (c) => {
    const account = c.get('account');
    requireScope(account, 'edit');
    const fields = await readFields(c);
    verifySignature(account, fields, c.req.header('signature'), deps.requireSignatureOnPatch);
    return c.json(render(c, messaging.edit(account, environment, c.req.param('id'), fields), 'edit'));
  });

  routes.delete('/:id', auth, fault('delete'), (c) => {
    const account = c.get('account');
    requireScope(account, 'delete');
    messaging.remove(account, environment, c.req.param('id'));
    return c.json({ status: 'successful' });
  });

  routes.all('/', methodNotAllowed(['GET', 'POST']));
  routes.all('/:id', methodNotAllowed(['GET', 'PATCH', 'DELETE']));
  return routes;
}

async function readFields(c: Context<ApiEnv>) {
  return decodeBody(await readBody(c), c.req.header('content-type'));
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function positiveInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = parseQueryInteger(value);
  if (number === undefined || number < 1) {
    throw new ApiError('INVALID_QUERY_PARAMETER', `${name} must be a whole number of at least 1 in plain digits, such as 2; got ${quoteExcerpt(value)}.`);
  }
  return number;
}
