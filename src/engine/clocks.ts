/**
 * The emulator's clocks: the main clock (realtime or manual, what accounts without a clock live on) and the test clocks,
 * each frozen until moved, that accounts can be attached to (Stripe's test clocks).
 */

import { ApiError } from '../domain/errors.js';
import { quoteExcerpt } from '../domain/excerpt.js';
import { Clock, type ClockIncident } from '../state/clock.js';
import type { Random } from '../state/random.js';

/** A test clock to make: its start instant (default the main clock's now), an optional name, and an id (else one is drawn). */
export interface TestClockSpec {
  startTime?: number;
  name?: string | null;
  id?: string;
}

export class Clocks {
  private readonly tests = new Map<string, Clock>();

  constructor(
    /** The emulator's own clock; moving it never moves a test clock, nor the other way round. */
    readonly main: Clock,
    /** Draws test clock ids, so they are the same for a seed. */
    private readonly ids: Random,
    private readonly onIncident: (incident: ClockIncident, clock: Clock) => void,
  ) {}

  /** Makes a test clock: always manual, so nothing happens on it until it is moved. */
  create(spec: TestClockSpec = {}): Clock {
    const id = spec.id ?? this.newId();
    if (this.tests.has(id))
      throw new ApiError('CONTROL_CONFLICT', `A clock with id ${quoteExcerpt(id)} already exists.`);
    const clock: Clock = new Clock(
      { mode: 'manual', speed: 1, startTime: spec.startTime ?? this.main.now(), id, name: spec.name ?? null },
      (incident) => this.onIncident(incident, clock),
    );
    this.tests.set(id, clock);
    return clock;
  }

  /** A test clock by id; an unknown one is CONTROL_NOT_FOUND. */
  get(id: string): Clock {
    const clock = this.tests.get(id);
    if (!clock) throw new ApiError('CONTROL_NOT_FOUND', `No clock has the id ${quoteExcerpt(id)}.`);
    return clock;
  }

  has(id: string): boolean {
    return this.tests.has(id);
  }

  /** The clock an account names: the main clock for none (null or absent), else that test clock. */
  resolve(id: string | null | undefined): Clock {
    return id == null ? this.main : this.get(id);
  }

  /** Every test clock, in creation order. */
  list(): Clock[] {
    return [...this.tests.values()];
  }

  /**
   * Resolves once no move is under way or queued on `clock`, or on any clock when none is given: a move makes its later
   * instants' tries only as it reaches them, so a wait for "every try due" waits for the moves first.
   */
  async movesEnded(clock?: Clock): Promise<void> {
    if (clock !== undefined) return clock.movesEnded();
    await Promise.all([this.main, ...this.tests.values()].map((each) => each.movesEnded()));
  }

  /** Forgets a test clock and drops its queued tasks (its accounts are removed by the caller first). */
  delete(clock: Clock): void {
    this.tests.delete(clock.id as string);
    clock.dispose();
  }

  /** Forgets every test clock (reset and snapshot import start from here). */
  clear(): void {
    for (const clock of this.tests.values()) clock.dispose();
    this.tests.clear();
  }

  private newId(): string {
    for (;;) {
      const id = `clock_${hex(this.ids.word())}${hex(this.ids.word())}`;
      if (!this.tests.has(id)) return id;
    }
  }
}

function hex(word: number): string {
  return word.toString(16).padStart(8, '0');
}
