/** The public API's operations, declared once (method, path, OpenAPI id, documentation anchor, title, summary): the routes, injected faults, the OpenAPI document and the documentation page derive from this table. */

import { defaultOffsetWords, scheduleFormat, scheduleWindowWords } from './scheduleWindow.js';

/** The methods the API serves, in the order an Allow header names them. */
export const apiMethods = ['GET', 'POST', 'PATCH', 'DELETE'] as const;
export type ApiMethod = (typeof apiMethods)[number];

export interface ApiOperation {
  anchor: string;
  method: ApiMethod;
  /** Below the environment's prefix (apiPrefixes), as OpenAPI writes it: `/messages/{message_id}`. */
  path: string;
  operationId: string;
  title: string;
  summary: string;
}

export const apiOperations = {
  balance: {
    anchor: 'get-balance',
    method: 'GET',
    path: '/messages/balance',
    operationId: 'getBalance',
    title: 'Read the credit balance',
    summary:
      'Returns {balance, documentation_url} for the authenticated account. Any other method is INVALID_HTTP_REQUEST_METHOD.',
  },
  send: {
    anchor: 'send-message',
    method: 'POST',
    path: '/messages',
    operationId: 'sendMessage',
    title: 'Send a message now',
    summary:
      'Body: recipient (array of 27XXXXXXXXX numbers), message, optional client_reference; Signature header required. Charged at once; status pending. 201 Created.',
  },
  schedule: {
    anchor: 'schedule-message',
    method: 'POST',
    path: '/messages',
    operationId: 'sendMessage',
    title: 'Schedule a message',
    summary: `As a send plus schedule (${scheduleFormat}, ${defaultOffsetWords}), ${scheduleWindowWords}. Status scheduled, credit 0 until it goes out.`,
  },
  edit: {
    anchor: 'edit-message',
    method: 'PATCH',
    path: '/messages/{message_id}',
    operationId: 'editMessage',
    title: 'Edit a scheduled message',
    summary:
      'Any of recipient, message, schedule, client_reference. Only while the status is scheduled (MESSAGE_NOT_SCHEDULED otherwise).',
  },
  delete: {
    anchor: 'delete-message',
    method: 'DELETE',
    path: '/messages/{message_id}',
    operationId: 'deleteMessage',
    title: 'Delete a scheduled message',
    summary: 'Returns {status: "successful"}. Only while the status is scheduled; the message is gone afterwards.',
  },
  get: {
    anchor: 'get-message',
    method: 'GET',
    path: '/messages/{message_id}',
    operationId: 'getMessage',
    title: 'Read one message',
    summary:
      'Returns the message object, or MESSAGE_NOT_FOUND for an id of no message of this account and environment.',
  },
  list: {
    anchor: 'list-messages',
    method: 'GET',
    path: '/messages',
    operationId: 'listMessages',
    title: 'List messages',
    summary:
      'Query: recipient (partial match), status, search (text contains, case-insensitive), page, limit (default 10, at most 100). Newest first; NO_SMS_MESSAGES when empty.',
  },
} satisfies Record<string, ApiOperation>;

export type ApiOperationName = keyof typeof apiOperations;

/** The operations a route serves and injected faults match: every one but `schedule`, which is a send with a schedule. */
export type RouteOperation = Exclude<ApiOperationName, 'schedule'>;
export const routeOperations = (Object.keys(apiOperations) as ApiOperationName[]).filter(
  (name): name is RouteOperation => name !== 'schedule',
) as [RouteOperation, ...RouteOperation[]];

/** The operations whose body names recipients, which a fault may match. */
export const recipientOperations: ReadonlySet<ApiOperationName> = new Set(['send', 'edit']);

/** The methods served at an operation's path, in the order an Allow header names them. */
export function allowedMethods(path: string): ApiMethod[] {
  const served = new Set(
    routeOperations.filter((name) => apiOperations[name].path === path).map((name) => apiOperations[name].method),
  );
  return apiMethods.filter((method) => served.has(method));
}
