import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { WebhookEvent, WebhookState } from '../../src/domain/webhookEvent.js';
import { WebhookLog } from '../../src/webhooks/log.js';

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
    behaviours: [],
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

test('keeps the same events in the same order as a map walked by one cursor would, through any mix of adds, finished tries and trims', () => {
  type Step = { add: WebhookState } | { finish: number } | { trim: true };
  const steps = fc.array(
    fc.oneof(
      fc.record({ add: fc.constantFrom<WebhookState>('skipped', 'skipped', 'delivered', 'pending', 'delayed') }),
      fc.record({ finish: fc.nat() }),
      fc.constant({ trim: true as const }),
    ),
    { maxLength: 3000 },
  );
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 5 }), steps, (limit, script: Step[]) => {
      // The model: a map in insertion order, trimmed by one iterator that goes on where it stopped.
      const model = new Map<string, WebhookEvent>();
      let cursor = model.keys();
      let roundDropped = 0;
      const trimModel = (): void => {
        let restarted = false;
        while (model.size > limit) {
          const next = cursor.next();
          if (next.done) {
            if (restarted && roundDropped === 0) return;
            cursor = model.keys();
            roundDropped = 0;
            restarted = true;
            continue;
          }
          const state = model.get(next.value)?.state;
          if (state !== 'pending' && state !== 'delayed') {
            model.delete(next.value);
            roundDropped += 1;
          }
        }
      };
      const log = new WebhookLog(limit);
      const added: WebhookEvent[] = [];
      for (const step of script) {
        if ('add' in step) {
          const entry = event(`e${added.length}`, step.add);
          added.push(entry);
          log.add(entry);
          model.set(entry.id, entry);
          trimModel();
        } else if ('finish' in step) {
          const entry = added[step.finish % Math.max(1, added.length)];
          if (entry && (entry.state === 'pending' || entry.state === 'delayed')) entry.state = 'failed';
        } else {
          log.trim();
          trimModel();
        }
        expect(log.list().map((entry) => entry.id)).toEqual([...model.keys()]);
      }
      for (const entry of added) expect(log.get(entry.id)).toBe(model.get(entry.id));
    }),
    { numRuns: 200 },
  );
});

test('after a round found only events still being tried, the next trim drops the oldest finished event, not the newest one added', () => {
  const log = new WebhookLog(2);
  const first = event('e0', 'pending');
  const second = event('e1', 'pending');
  log.add(first);
  log.add(second);
  log.add(event('e2', 'delayed'));
  first.state = 'failed';
  second.state = 'failed';
  log.add(event('e3', 'skipped'));
  expect(log.list().map((entry) => entry.id)).toEqual(['e2', 'e3']);
});
