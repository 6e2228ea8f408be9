/** Messages: list and read them, force an outcome, and wait for a status on the message's own clock. */

import { ApiError } from '../../domain/errors.js';
import type { Page } from '../../domain/list.js';
import { type Leg, type MessageRecord, isFinal, transitionProblem } from '../../domain/message.js';
import { type MessageView, messageView } from '../../domain/messageView.js';
import type { ForceStatusInput, MessageFilter, WaitInput } from '../inputs.js';
import { findAccount, findMessage } from '../lookups.js';
import type { OperationDeps, Paged } from '../operation.js';
import type { WaitView } from '../views.js';
import type { Clock } from '../../state/clock.js';
import type { OperationTable } from '../operation.js';
import { forceStatusInput, messageFilter, waitInput } from '../inputs.js';
import { body, id, query } from '../argSpecs.js';

/** One page of messages: the query pages them, so only the page's views are built. */
export function listMessages(
  { core }: OperationDeps,
  { page, limit, ...filter }: Paged<MessageFilter>,
): Page<MessageView> {
  const records: MessageRecord[] = [];
  const total = core.messaging.inspect(filter, (page - 1) * limit, limit, records);
  return { items: records.map((message) => messageView(message, core.offsetMinutes)), total, page, limit };
}

export function getMessage({ core }: OperationDeps, id: string): MessageView {
  return messageView(findMessage(core, id), core.offsetMinutes);
}

/**
 * Moves the message's open legs (or the one of `recipient`) to `status` now, through legal moves only: every leg is
 * checked before any changes, and an illegal move is refused with the state machine's reason. Answers with a reading of
 * the message, for once the webhooks the changes posted were tried.
 */
export function forceStatus(
  { core }: OperationDeps,
  id: string,
  { status, recipient }: ForceStatusInput,
): () => MessageView {
  const message = findMessage(core, id);
  const account = findAccount(core, message.apiKey);
  const refuse = (reason: string) =>
    new ApiError('CONTROL_INVALID_REQUEST', `Cannot move message ${id} to ${status}: ${reason}.`);
  if (message.deletedAt !== undefined) throw refuse('it was deleted');
  let legs: Leg[];
  if (recipient !== undefined) {
    const leg = message.legs.find((candidate) => candidate.recipient === recipient);
    if (!leg) throw refuse(`${recipient} is not one of its recipients (${message.recipients.join(', ')})`);
    if (message.status === 'scheduled' && message.legs.length > 1)
      throw refuse('a scheduled message goes out, or fails, with all its recipients');
    legs = [leg];
  } else {
    legs = message.legs.filter((leg) => !isFinal(leg.status));
    if (legs.length === 0) legs = message.legs.slice(0, 1);
  }
  for (const leg of legs) {
    const problem = transitionProblem(leg.status, status);
    if (problem) throw refuse(`${problem} (recipient ${leg.recipient})`);
  }
  core.lifecycle.force(account, message, legs, status);
  return () => messageView(message, core.offsetMinutes);
}

/** The clock of a message's account, whose webhook tries a call on that message waits for. */
export function settlesMessage({ core }: OperationDeps, id: string): Clock {
  return findAccount(core, findMessage(core, id).apiKey).clock;
}

export function waitForStatus(
  { waitFor }: OperationDeps,
  id: string,
  { status, within }: WaitInput,
): Promise<WaitView> {
  return waitFor(id, status, within);
}

export const messagesRows = {
  list: {
    method: 'GET',
    path: '/messages',
    answer: 'ControlMessage',
    args: [query],
    input: messageFilter,
    inputName: 'message filter',
    pages: true,
    summary:
      'Messages of both environments with legs and history, newest first; filters `environment`, `account`, `status`, `recipient`, `clientReference` (exact).',
    run: listMessages,
  },
  get: {
    method: 'GET',
    path: '/messages/{id}',
    answer: 'ControlMessage',
    args: [id],
    summary: 'One message with legs, history and upcoming changes.',
    run: getMessage,
  },
  forceStatus: {
    method: 'POST',
    path: '/messages/{id}/status',
    answer: 'ControlMessage',
    args: [id, body],
    input: forceStatusInput,
    inputName: 'forced status',
    settles: settlesMessage,
    summary:
      'Forces an outcome now: `{"status": "undelivered", "recipient"?: "27831234567"}` moves the open legs (or that one) through legal moves only, posts their webhooks, cancels the rest of their plan; answers the message after the webhooks were tried.',
    run: forceStatus,
  },
  wait: {
    method: 'POST',
    path: '/messages/{id}/wait',
    answer: 'Wait',
    args: [id, body],
    input: waitInput,
    inputName: 'wait',
    summary:
      '`{"status": "delivered", "within"?: "1h"}`: moves the message\'s own clock to each of its next changes until it has that status and its webhooks were tried (a realtime clock is watched); answers `{message, clock}` (the clock\'s `id`, `now`, `time` then), CONTROL_WAIT_FAILED with its history when it ends otherwise or `within` passes, or CONTROL_WEBHOOK_REFUSED naming the receiver\'s answers when it got there but the account\'s webhook receiver refused every try of that status\'s notification.',
    run: waitForStatus,
  },
} satisfies OperationTable['messages'];
