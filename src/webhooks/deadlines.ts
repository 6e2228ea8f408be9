/**
 * Times out webhook tries with one host timer for all of them.
 *
 * Every try gets the same timeout, so deadlines come due in the order the tries started: a queue in
 * start order and one timer at the oldest open deadline time out each try exactly when its own timer
 * would have, without arming and clearing a timer per try (a timer per try was a visible share of
 * posting thousands of webhooks a second: docs/decisions/0001-fast-lane.md).
 */

// node:timers, so a host test runner that fakes the global timers cannot stall a try.
import { clearTimeout, setTimeout } from 'node:timers';

/** What the queue needs of a try: when it must end, whether it has, and how to end it when time is up. */
export interface Deadline {
  readonly deadline: number;
  readonly done: boolean;
  expire(): void;
}

export class Deadlines<T extends Deadline> {
  private queue: T[] = [];
  private head = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** Watches `entry` until it is done; entries come in deadline order (one timeout, start order). */
  add(entry: T): void {
    this.queue.push(entry);
    if (this.timer === undefined) this.arm();
  }

  /** Forgets the finished entries at the front (call when an entry finishes, so the queue stays as short as what is open). */
  release(): void {
    while (this.head < this.queue.length && (this.queue[this.head] as T).done) this.head += 1;
    if (this.head === this.queue.length) this.reset();
    else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  /** The entries not done yet, oldest first. */
  open(): T[] {
    return this.queue.slice(this.head).filter((entry) => !entry.done);
  }

  /** Stops watching (the entries are ended by their owner). */
  clear(): void {
    this.reset();
  }

  private reset(): void {
    this.queue = [];
    this.head = 0;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    const first = this.queue[this.head];
    if (!first) return;
    this.timer = setTimeout(() => this.sweep(), Math.max(0, Math.ceil(first.deadline - performance.now())));
  }

  private sweep(): void {
    this.timer = undefined;
    const now = performance.now();
    for (
      let entry = this.queue[this.head];
      entry && (entry.done || entry.deadline <= now);
      entry = this.queue[this.head]
    ) {
      this.head += 1;
      if (!entry.done) entry.expire();
    }
    this.release();
    if (this.timer === undefined) this.arm();
  }
}
