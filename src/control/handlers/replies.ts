/** Inbound replies: inject one from a recipient of a sent message, and list them. */

import { ApiError } from '../../domain/errors.js';
import { paginate, type Page } from '../../domain/list.js';
import { environments } from '../../domain/message.js';
import { type MessageView, messageView } from '../../domain/messageView.js';
import { receiveReply } from '../../engine/replies.js';
import type { MessageFilter, ReplyInput } from '../inputs.js';
import { findAccount, findMessage } from '../lookups.js';
import type { OperationDeps, Paged } from '../operation.js';
import type { OperationTable } from '../operation.js';
import { messageFilter, replyInput } from '../inputs.js';
import { body, id, query } from '../argSpecs.js';
import { settlesMessage } from './messages.js';

/** An inbound reply from a recipient of a sent message; stored, and announced as `reply.received`. */
export function injectReply({ core }: OperationDeps, messageId: string, { from, text }: ReplyInput): MessageView {
  const original = findMessage(core, messageId);
  const sender = from ?? original.recipients[0];
  if (sender === undefined || !original.recipients.includes(sender)) {
    throw new ApiError(
      'CONTROL_INVALID_REQUEST',
      `${from} is not a recipient of message ${messageId} (${original.recipients.join(', ')}).`,
    );
  }
  const { store, events, random } = core;
  const clock = findAccount(core, original.apiKey).clock;
  const reply = receiveReply({ clock, store, events, ids: random.ids }, original, sender, text);
  return messageView(reply, core.offsetMinutes);
}

export function listReplies(
  { core }: OperationDeps,
  { page, limit, ...filter }: Paged<Pick<MessageFilter, 'environment' | 'account'>>,
): Page<MessageView> {
  const { store } = core;
  const account = filter.account === undefined ? undefined : store.accounts.get(filter.account);
  if (filter.account !== undefined && account === undefined) return paginate([], page, limit);
  const replies = (filter.environment ? [filter.environment] : environments).flatMap((environment) =>
    account ? account.environments[environment].replies : store.replies(environment),
  );
  return paginate(
    replies.map((reply) => messageView(reply, core.offsetMinutes)),
    page,
    limit,
  );
}

export const repliesRows = {
  inject: {
    method: 'POST',
    path: '/messages/{id}/replies',
    answer: 'ControlMessage',
    args: [id, body],
    input: replyInput,
    inputName: 'reply',
    status: 201,
    settles: settlesMessage,
    summary:
      'Injects an inbound reply `{"from": "27831234567", "text": "Yes"}` (`from` defaults to the first recipient); answers after its webhook was tried.',
    run: injectReply,
  },
  list: {
    method: 'GET',
    path: '/replies',
    answer: 'ControlMessage',
    args: [query],
    input: messageFilter.pick({ environment: true, account: true }),
    inputName: 'reply filter',
    pages: true,
    summary: 'Inbound replies, oldest first; filters `environment`, `account`.',
    run: listReplies,
  },
} satisfies OperationTable['replies'];
