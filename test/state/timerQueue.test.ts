import fc from 'fast-check';
import { expect, test } from 'vitest';
import { type Timer, TimerQueue } from '../../src/state/timerQueue.js';

type Step = { push: number } | { cancel: number } | { pop: number } | { clear: true };

const steps = fc.array(
  fc.oneof(
    // Few distinct times, so runs of one instant form, break and interleave.
    { weight: 6, arbitrary: fc.record({ push: fc.integer({ min: 0, max: 6 }) }) },
    { weight: 2, arbitrary: fc.record({ cancel: fc.nat() }) },
    { weight: 3, arbitrary: fc.record({ pop: fc.integer({ min: -1, max: 7 }) }) },
    { weight: 1, arbitrary: fc.constant({ clear: true as const }) },
  ),
  { maxLength: 300 },
);

test('pops timers by due time, then in the order they were pushed, whatever pushes, cancels, pops and clears come between', () => {
  fc.assert(
    fc.property(steps, (script: Step[]) => {
      const queue = new TimerQueue();
      let pushed: Timer[] = [];
      let model: Timer[] = [];
      for (const step of script) {
        if ('push' in step) {
          const timer = queue.push(step.push, () => undefined, 'test');
          pushed.push(timer);
          model.push(timer);
        } else if ('cancel' in step) {
          const timer = pushed[step.cancel % Math.max(1, pushed.length)];
          if (timer) queue.cancel(timer);
          model = model.filter((queued) => queued !== timer);
        } else if ('pop' in step) {
          const due = model.filter((timer) => timer.due <= step.pop).sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
          expect(queue.popDue(step.pop)).toBe(due);
          model = model.filter((timer) => timer !== due);
        } else {
          queue.clear();
          expect(pushed.every((timer) => !timer.pending)).toBe(true);
          pushed = [];
          model = [];
        }
        expect(queue.size).toBe(model.length);
        expect(queue.peek()).toBe([...model].sort((a, b) => a.due - b.due || a.seq - b.seq)[0]);
      }
      const order = [...model].sort((a, b) => a.due - b.due || a.seq - b.seq);
      for (const timer of order) expect(queue.popDue(Infinity)).toBe(timer);
      expect(queue.popDue(Infinity)).toBeUndefined();
    }),
    { numRuns: 500 },
  );
});
