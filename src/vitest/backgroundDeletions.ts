/**
 * BackgroundDeletions: the test worlds of a file still being deleted over HTTP. A sealed test clock's deletion runs
 * while the next test starts (nothing else can touch that world), which takes a round trip off every process-mode
 * test; the file waits for them all before it ends, and a deletion that failed fails the file there, not silently.
 */
export class BackgroundDeletions {
  private readonly pending = new Set<Promise<void>>();
  private readonly failures: unknown[] = [];

  /** Starts waiting for one deletion; it leaves the set once ended, so a long file holds only those under way. */
  add(deletion: Promise<void>): void {
    const tracked: Promise<void> = deletion.then(
      () => void this.pending.delete(tracked),
      (error: unknown) => {
        this.pending.delete(tracked);
        this.failures.push(error);
      },
    );
    this.pending.add(tracked);
  }

  /** Resolves once every deletion has ended; rejects with the first that failed. */
  async ended(): Promise<void> {
    await Promise.all(this.pending);
    if (this.failures.length > 0) throw this.failures[0];
  }
}
