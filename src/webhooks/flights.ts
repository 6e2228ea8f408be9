/** Counts the webhook work under way, in the whole emulator and per clock, and wakes who waits for it to end. */

import type { Clock } from '../state/clock.js';

/** Tries under way, and who waits for there to be none. */
interface Flight {
  count: number;
  waiters: (() => void)[];
}

/** One try ended: the last one wakes whoever waits. */
function land(flight: Flight): void {
  flight.count -= 1;
  if (flight.count > 0) return;
  const { waiters } = flight;
  flight.waiters = [];
  for (const resolve of waiters) resolve();
}

export class Flights {
  /** Pumps and redeliveries under way in the whole emulator, and per clock (a move settles only its own clock's). */
  private readonly everywhere: Flight = { count: 0, waiters: [] };
  private readonly perClock = new WeakMap<Clock, Flight>();

  /**
   * Counts `promise` as in flight on `clock` and in the emulator until it ends; counts, not sets of promises, so
   * settled() costs nothing per event.
   */
  track<T>(clock: Clock, promise: Promise<T>): Promise<T> {
    let flight = this.perClock.get(clock);
    if (flight === undefined) {
      flight = { count: 0, waiters: [] };
      this.perClock.set(clock, flight);
    }
    const own = flight;
    own.count += 1;
    this.everywhere.count += 1;
    const ended = (): void => {
      land(own);
      land(this.everywhere);
    };
    promise.then(ended, ended);
    return promise;
  }

  /** Resolves once nothing tracked is under way: on `clock` when given, else anywhere. */
  async settled(clock?: Clock): Promise<void> {
    await this.pending(clock);
  }

  /**
   * What settled() waits for, or undefined when nothing tracked is under way now: a clock move asks at every due instant
   * it stops at, and most make no tries.
   */
  pending(clock?: Clock): Promise<void> | undefined {
    const flight = clock === undefined ? this.everywhere : this.perClock.get(clock);
    if (flight === undefined || flight.count === 0) return undefined;
    return new Promise<void>((resolve) => flight.waiters.push(resolve));
  }
}
