/** What a webhook posts: a delivery notification narrowed to one leg, or an inbound reply. */

import { type MessageJson, type RenderContext, renderLegNotification, renderMessage } from '../domain/representation.js';
import type { Leg, MessageRecord, MessageStatus } from '../domain/message.js';

export function deliveryPayload(message: MessageRecord, leg: Leg, status: MessageStatus, context: RenderContext): MessageJson {
  return renderLegNotification(message, leg.recipient, status, context);
}

export function replyPayload(reply: MessageRecord, context: RenderContext): MessageJson {
  return renderMessage(reply, context);
}
