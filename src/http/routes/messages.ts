/** The /v1/messages resource: send, schedule, list, read, edit and delete. */

import { ApiError } from '../../domain/errors.js';
import { quoteExcerpt } from '../../domain/excerpt.js';
import { parseQueryInteger } from '../../domain/queryInteger.js';
import { renderMessage } from '../../domain/representation.js';
import type { MessageRecord } from '../../domain/message.js';
import { listLinks } from '../../domain/links.js';
import { type Messaging, defaultPageSize, maxPageSize } from '../../engine/messages.js';
import { decodeBody } from '../body.js';
import type { ImportGate } from '../../engine/importGate.js';
import type { ApiAnswer, Answering } from '../apiExchange.js';
import type { ApiRoute, MethodList, RouteCall } from '../apiRoute.js';
import type { RequestFields } from '../../domain/signing.js';
import { json, methodsAt, routeOf } from '../apiRoute.js';
import { operationDocUrl } from '../documentation.js';
import type { ApiOperationName } from '../../domain/apiOperations.js';
import { requireScope } from '../checks/authenticate.js';
import { outcomeHeaderName, parseOutcomeHeader } from '../../engine/scenario/outcomeHeader.js';
import { verifySignature } from '../checks/verifySignature.js';
import { type ResponseSettings, errorAnswer } from '../respond.js';

export interface MessagesRouteDeps {
  messaging: Messaging;
  outcomeHeader: boolean;
  settings: ResponseSettings;
  maxBodySize: number;
  requireSignatureOnPatch: boolean;
  noMessagesStatus: number;
  /** Held while a snapshot import puts its state in place: a send whose body arrives meanwhile is refused. */
  imports: ImportGate;
}

export function messagesRoutes(deps: MessagesRouteDeps): (ApiRoute | MethodList)[] {
  const { messaging, settings } = deps;
  const render = (call: RouteCall, message: MessageRecord, operation: ApiOperationName) =>
    renderMessage(
      message,
      { apiBase: call.apiBase(), offsetMinutes: settings.offsetMinutes },
      operationDocUrl(call.docsBase(), operation),
    );
  /**
   * Decodes the body and goes on with `then`, at once when the body has already arrived; one that arrives after a
   * snapshot import began putting its state in place is refused, as a request arriving then is.
   */
  const withFields = (call: RouteCall, then: (fields: RequestFields) => ApiAnswer): Answering => {
    const decode = (bytes: Uint8Array) => then(decodeBody(bytes, call.request.header('content-type')));
    const bytes = call.request.body(deps.maxBodySize);
    if (!(bytes instanceof Promise)) return decode(bytes);
    return bytes.then((read) => {
      deps.imports.refuseWhileRunning();
      return decode(read);
    });
  };

  return [
    {
      ...routeOf('send'),
      serve: (call) => {
        const { account, request } = call;
        requireScope(account, 'send');
        const forced = deps.outcomeHeader ? request.header(outcomeHeaderName) : undefined;
        const outcome = forced === undefined ? undefined : parseOutcomeHeader(forced);
        return withFields(call, (fields) => {
          // call.account again: the body may have arrived after a reset (see RouteCall.account).
          const sender = call.account;
          verifySignature(sender, fields, request.header('signature'), true);
          const message = messaging.send(sender, call.environment, fields, outcome);
          return json(render(call, message, message.scheduleAt === null ? 'send' : 'schedule'), 201);
        });
      },
    },
    {
      ...routeOf('list'),
      serve: (call) => {
        const { account } = call;
        requireScope(account, 'read');
        const query = call.request.queryParams();
        const page = messaging.list(account, call.environment, {
          recipient: nonBlank(query.recipient),
          status: nonBlank(query.status),
          search: nonBlank(query.search),
          page: positiveInteger(query.page, 'page', 1),
          limit: Math.min(maxPageSize, positiveInteger(query.limit, 'limit', defaultPageSize)),
        });
        if (page.items.length === 0) {
          const error = new ApiError(
            'NO_SMS_MESSAGES',
            page.totalItems === 0
              ? 'There are no messages for this request.'
              : `Page ${page.page} is past the last page (${page.totalPages}).`,
          );
          return errorAnswer(call.request, error, settings, deps.noMessagesStatus);
        }
        const base = call.apiBase();
        return json({
          list: page.items.map((message) =>
            renderMessage(message, { apiBase: base, offsetMinutes: settings.offsetMinutes }),
          ),
          page: page.page,
          limit: page.limit,
          total_pages: page.totalPages,
          total_items: page.totalItems,
          _links: listLinks(base, { ...query, limit: String(page.limit) }, page.page, page.totalPages),
          documentation_url: operationDocUrl(call.docsBase(), 'list'),
        });
      },
    },
    {
      ...routeOf('get'),
      serve: (call) => {
        requireScope(call.account, 'read');
        return json(render(call, messaging.get(call.account, call.environment, call.id), 'get'));
      },
    },
    {
      ...routeOf('edit'),
      serve: (call) => {
        const { account } = call;
        requireScope(account, 'edit');
        return withFields(call, (fields) => {
          const editor = call.account;
          verifySignature(editor, fields, call.request.header('signature'), deps.requireSignatureOnPatch);
          return json(render(call, messaging.edit(editor, call.environment, call.id, fields), 'edit'));
        });
      },
    },
    {
      ...routeOf('delete'),
      serve: (call) => {
        requireScope(call.account, 'delete');
        messaging.remove(call.account, call.environment, call.id);
        return json({ status: 'successful' });
      },
    },
    methodsAt('send'),
    methodsAt('get'),
  ];
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function positiveInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = parseQueryInteger(value);
  if (number === undefined || number < 1) {
    throw new ApiError(
      'INVALID_QUERY_PARAMETER',
      `${name} must be a whole number of at least 1 in plain digits, such as 2; got ${quoteExcerpt(value)}.`,
    );
  }
  return number;
}
