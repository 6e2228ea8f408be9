/** How a webhook event is shown: a password is masked wherever the event quotes one, and the log keeps it whole. */

import { expect, test } from 'vitest';
import { type WebhookEvent, shownWebhookEvent } from '../../src/domain/webhookEvent.js';

test('a password quoted in a receiver answer is masked where the event is shown, and the logged event keeps it', () => {
  const answer = 'the app at http://u:pw-hidden@127.0.0.1:1/hooks did not answer';
  const event = {
    id: 'e1',
    kind: 'delivery',
    environment: 'live',
    account: 'pk_test',
    messageId: 'm1',
    recipient: '27831234567',
    status: 'delivered',
    createdAt: '2026-11-27T10:00:00+02:00',
    url: 'http://127.0.0.1:4000/hooks',
    state: 'failed',
    payload: {},
    attempts: [
      {
        number: 1,
        at: '2026-11-27T10:00:00+02:00',
        url: 'http://127.0.0.1:4000/hooks',
        status: 502,
        answer,
        durationMs: 1,
        ok: false,
      },
    ],
    behaviours: [],
  } as unknown as WebhookEvent;
  expect(shownWebhookEvent(event).attempts[0]?.answer).toBe('the app at http://u:***@127.0.0.1:1/hooks did not answer');
  expect(event.attempts[0]?.answer).toBe(answer);
});
