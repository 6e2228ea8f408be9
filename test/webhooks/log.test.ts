import { expect, test } from 'vitest';
import { type WebhookEvent, type WebhookState, WebhookLog } from '../../src/webhooks/log.js';

function event(id: string, state: WebhookState): WebhookEvent {
  return {
    id,
    kind: 'delivery',
    environment: 'live',
    account: 'pk',
    messageId: 'm',
    recipient: 'r',
    status: 'delivered',
    createdAt: '',
    url: null,
    state,
    payload: {},
    attempts: [],
    chaos: [],
  };
}

test('keeps the newest events up to the limit however many come, oldest dropped first', () => {
  const log = new WebhookLog(3);
  for (let i = 0; i < 1000; i++) log.add(event(`e${i}`, 'skipped'));
  expect(log.list().map((entry) => entry.id)).toEqual(['e997', 'e998', 'e999']);
  log.clear();
  for (let i = 0; i < 5; i++) log.add(event(`f${i}`, 'delivered'));
  expect(log.list().map((entry) => entry.id)).toEqual(['f2', 'f3', 'f4']);
});

test('an event passed over while still being tried is dropped once it is done and the log is over its limit', () => {
  const log = new WebhookLog(2);
  const slow = event('slow', 'pending');
  log.add(slow);
  log.add(event('a', 'pending'));
  log.add(event('b', 'pending'));
  expect(log.list()).toHaveLength(3);
  slow.state = 'failed';
  log.trim();
  expect(log.list().map((entry) => entry.id)).toEqual(['a', 'b']);
  for (let i = 0; i < 10; i++) log.add(event(`c${i}`, 'skipped'));
  expect(log.list().map((entry) => entry.id)).toEqual(['a', 'b']);
});
