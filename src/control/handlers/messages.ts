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
