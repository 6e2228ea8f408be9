/**
 * The webhook events of each message, in the order they happened: one pump per message posts them one after another,
 * and a head held until a later emulator time (a late notification) waits for its clock, holding those behind it.
 */

import type { Clock } from '../state/clock.js';
import type { Flights } from './flights.js';

/** What a queue holds: something to post, not before an emulator time on its clock. */
export interface Queued {
  /** Emulator time before which it must not be posted. */
  notBefore: number;
  /** The clock of the event's account: its holds and the times of its tries are on it. */
  clock: Clock;
}

interface MessageQueue<T extends Queued> {
  /** The clock of the message's account: the queue's pump counts as that clock's work. */
  clock: Clock;
  items: T[];
  pumping: boolean;
  /** Set while a clock timer is armed to resume a held-back head. */
  waiting: boolean;
}

export class MessageQueues<T extends Queued> {
  private readonly queues = new Map<string, MessageQueue<T>>();
  /** Bumped by clear(): a pump of before stops at its next item. */
  private generation = 0;

  constructor(
    private readonly post: (item: T) => Promise<void>,
    private readonly flights: Flights,
  ) {}

  /** Queues `items` behind the message's others and starts its pump. */
  push(key: string, clock: Clock, items: readonly T[]): void {
    let queue = this.queues.get(key);
    if (queue === undefined) {
      queue = { clock, items: [], pumping: false, waiting: false };
      this.queues.set(key, queue);
    }
    queue.items.push(...items);
    this.pump(key);
  }

  /** Drops a message's queued events (its account was deleted): they never go out. */
  forget(key: string): void {
    const queue = this.queues.get(key);
    if (queue === undefined) return;
    queue.items.length = 0;
    this.queues.delete(key);
  }

  /** Drops every queue (reset); a post on the wire finishes, and its pump stops after it. */
  clear(): void {
    this.generation += 1;
    this.queues.clear();
  }

  /** Posts a message's queued events one after another; a held-back head waits for the clock. */
  private pump(key: string): void {
    const queue = this.queues.get(key);
    if (!queue || queue.pumping) return;
    const generation = this.generation;
    const run = async (): Promise<void> => {
      queue.pumping = true;
      try {
        while (queue.items.length > 0 && generation === this.generation) {
          const head = queue.items[0] as T;
          if (head.notBefore > head.clock.now()) {
            if (!queue.waiting) {
              queue.waiting = true;
              head.clock.at(head.notBefore, () => {
                queue.waiting = false;
                this.pump(key);
              });
            }
            return;
          }
          await this.post(head);
          queue.items.shift();
        }
        if (queue.items.length === 0 && this.queues.get(key) === queue) this.queues.delete(key);
      } finally {
        queue.pumping = false;
      }
    };
    void this.flights.track(queue.clock, run());
  }
}
