/**
 * The host timers the emulator starts on the wall clock (a fault's latency, a slow body's trickle, a webhook
 * re-attempt's backoff), kept so that `close()` ends every one of them and an embedding process exits at once.
 */

export class WallTimers {
  private readonly pending = new Map<ReturnType<typeof setTimeout>, () => void>();
  private ended = false;

  /**
   * Calls `run` after `ms`; at once, and no more after close, when the emulator closes first. Answers a cancel that ends
   * the timer without running it (a trickle whose client left), so nothing stays armed for a listener who is gone.
   */
  after(ms: number, run: () => void): () => void {
    if (this.ended) {
      run();
      return () => undefined;
    }
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      run();
    }, ms);
    this.pending.set(timer, run);
    return () => {
      clearTimeout(timer);
      this.pending.delete(timer);
    };
  }

  /** Resolves after `ms`, or at once when the emulator closes meanwhile (what waits then finds it closed). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => void this.after(ms, resolve));
  }

  /** Whether close() was called: a trickle still under way stops instead of writing on. */
  get closed(): boolean {
    return this.ended;
  }

  /** Ends every timer: each one's callback runs now, so nothing waits for a timer that will never fire. */
  close(): void {
    this.ended = true;
    const callbacks = [...this.pending.values()];
    for (const timer of this.pending.keys()) clearTimeout(timer);
    this.pending.clear();
    for (const run of callbacks) run();
  }
}
