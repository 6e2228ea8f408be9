/**
 * The one routine that returns every piece of state to the start: `reset` runs all of it, snapshot
 * import clears with it before applying the snapshot, and start-up itself is its first run.
 */

/** A holder of state. Everything that keeps state registers one, so no reset can miss it. */
export interface StatePart {
  /** Drops everything made at runtime: data, queues, timers, logs; settings go back to their start-up values. */
  clear?(): void;
  /** Puts back what this part holds at start-up; runs after every part was cleared, in registration order. */
  start?(): void;
  /** Runs after every part has started (to record what start-up produced). */
  started?(): void;
}

export class StartState {
  private readonly parts: StatePart[] = [];

  /** Registers a part; clears and starts run in registration order. Returns the unregister function. */
  register(part: StatePart): () => void {
    this.parts.push(part);
    return () => {
      const index = this.parts.indexOf(part);
      if (index >= 0) this.parts.splice(index, 1);
    };
  }

  /** Empties every part: no accounts, messages, timers, logs; clock and random streams at their start. */
  clear(): void {
    for (const part of this.parts) part.clear?.();
  }

  /** Back to the state at start-up, exactly. */
  reset(): void {
    this.clear();
    for (const part of this.parts) part.start?.();
    for (const part of this.parts) part.started?.();
  }
}
