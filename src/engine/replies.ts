/** Creating an inbound reply to a sent message: stored for inspection and announced as an event. */

import type { MessageRecord } from '../domain/message.js';
import type { EmulatorEmitter } from '../events.js';
import type { Clock } from '../state/clock.js';
import type { Random } from '../state/random.js';
import type { Store } from '../state/store.js';

export interface ReplyDeps {
  /** The clock of the account the reply comes to: the reply is received at its time. */
  clock: Clock;
  store: Store;
  events: EmulatorEmitter;
  ids: Random;
}

export function receiveReply(
  { clock, store, events, ids }: ReplyDeps,
  original: MessageRecord,
  from: string,
  text: string,
): MessageRecord {
  const now = clock.now();
  const reply: MessageRecord = {
    id: ids.uuid(),
    type: 'sms-reply',
    environment: original.environment,
    apiKey: original.apiKey,
    recipients: [from],
    text,
    clientReference: original.clientReference,
    scheduleAt: null,
    status: 'delivered',
    credit: 0,
    createdAt: now,
    deliveredAt: now,
    legs: [],
    history: [{ status: 'delivered', at: now }],
    inReplyTo: original.id,
  };
  store.addReply(reply);
  events.emit('reply.received', { reply, original });
  return reply;
}
