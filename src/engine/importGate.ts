/**
 * The gate a snapshot import over HTTP holds while it puts its state in place, slice by slice: a request that arrives
 * meanwhile is refused with a retryable error rather than see half a state or change it, and imports take turns.
 */

import { ApiError } from '../domain/errors.js';

/** Whole seconds a refused request is told to wait (its Retry-After): an import at the default size is put in place in under a second or two. */
export const importRetryAfterSeconds = 1;

export class ImportGate {
  /** Whether an import is putting its state in place: the one check a request makes. */
  running = false;
  private last: Promise<void> = Promise.resolve();

  /** Runs `apply` holding the gate, after every import already holding or waiting for it (imports never overlap). */
  hold(apply: () => Promise<void>): Promise<void> {
    const turn = this.last.then(async () => {
      this.running = true;
      try {
        await apply();
      } finally {
        this.running = false;
      }
    });
    this.last = turn.catch(() => undefined);
    return turn;
  }

  /** Throws SNAPSHOT_IMPORT_RUNNING when an import holds the gate: for a request that resumes after waiting (a body, a fault's latency). */
  refuseWhileRunning(): void {
    if (this.running) throw importRunning();
  }
}

/** The refusal of a request that arrived while an import was putting its state in place. */
export function importRunning(): ApiError {
  return new ApiError('SNAPSHOT_IMPORT_RUNNING', undefined, { 'Retry-After': String(importRetryAfterSeconds) });
}
