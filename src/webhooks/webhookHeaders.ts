/** The headers of a webhook post: one home for what the dispatcher sends and what check-receiver imitates. */

import { createHmac } from 'node:crypto';

/** Content type, user agent and event id, and `webhook-signature` (hex HMAC-SHA256 of the body) when there is a secret. */
export function webhookHeaders(eventId: string, body: string, signingSecret?: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'sms-emulator',
    'x-emulator-event-id': eventId,
  };
  if (signingSecret) headers['webhook-signature'] = createHmac('sha256', signingSecret).update(body).digest('hex');
  return headers;
}

/** The headers of one try: the event's, with the try's number (1 for the first). */
export function tryHeaders(headers: Record<string, string>, number: number): Record<string, string> {
  return { ...headers, 'x-emulator-attempt': String(number) };
}
