/** Documentation anchors of every operation and error code, and the URLs that point at them. */

import type { ErrorCode } from '../domain/errors.js';
import { defaultOffsetWords, scheduleFormat, scheduleWindowWords } from '../domain/scheduleWindow.js';

export interface OperationDoc {
  anchor: string;
  method: string;
  path: string;
  title: string;
  summary: string;
}

export const operations = {
  balance: {
    anchor: 'get-balance',
    method: 'GET',
    path: '/v1/messages/balance',
    title: 'Read the credit balance',
    summary: 'Returns {balance, documentation_url} for the authenticated account. Any other method is INVALID_HTTP_REQUEST_METHOD.',
  },
  send: {
    anchor: 'send-message',
    method: 'POST',
    path: '/v1/messages',
    title: 'Send a message now',
    summary:
      'Body: recipient (array of 27XXXXXXXXX numbers), message, optional client_reference; Signature header required. Charged at once; status pending. 201 Created.',
  },
  schedule: {
    anchor: 'schedule-message',
    method: 'POST',
    path: '/v1/messages',
    title: 'Schedule a message',
    summary: `As a send plus schedule (${scheduleFormat}, ${defaultOffsetWords}), ${scheduleWindowWords}. Status scheduled, credit 0 until it goes out.`,
  },
  edit: {
    anchor: 'edit-message',
    method: 'PATCH',
    path: '/v1/messages/{message_id}',
    title: 'Edit a scheduled message',
    summary: 'Any of recipient, message, schedule, client_reference. Only while the status is scheduled (MESSAGE_NOT_SCHEDULED otherwise).',
  },
  delete: {
    anchor: 'delete-message',
    method: 'DELETE',
    path: '/v1/messages/{message_id}',
    title: 'Delete a scheduled message',
    summary: 'Returns {status: "successful"}. Only while the status is scheduled; the message is gone afterwards.',
  },
  get: {
    anchor: 'get-message',
    method: 'GET',
    path: '/v1/messages/{message_id}',
    title: 'Read one message',
    summary: 'Returns the message object, or MESSAGE_NOT_FOUND for an id of no message of this account and environment.',
  },
  list: {
    anchor: 'list-messages',
    method: 'GET',
    path: '/v1/messages',
    title: 'List messages',
    summary:
      'Query: recipient (partial match), status, search (text contains, case-insensitive), page, limit (default 10, at most 100). Newest first; NO_SMS_MESSAGES when empty.',
  },
} satisfies Record<string, OperationDoc>;

export type Operation = keyof typeof operations;

export function operationDocUrl(docsBase: string, operation: Operation): string {
  return `${docsBase}/messages#${operations[operation].anchor}`;
}

export function errorDocUrl(docsBase: string, code: ErrorCode): string {
  return `${docsBase}/errors#${code}`;
}
