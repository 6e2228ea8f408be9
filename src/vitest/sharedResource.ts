/**
 * sharedResource: one resource for every holder, opened by the first and closed when the last lets go. A variant of the
 * fixture's `test` (vitest gives each `test.extend` its own file and worker contexts) then reuses the emulator and the
 * catcher server already open instead of starting its own.
 */

export interface SharedResource<T, A extends unknown[]> {
  /** The resource, opened with `args` when no one holds it yet. */
  acquire(...args: A): Promise<T>;
  /** Lets go of it; the last holder closes it. */
  release(): Promise<void>;
}

export function sharedResource<T, A extends unknown[]>(
  open: (...args: A) => Promise<T>,
  close: (value: T) => Promise<void>,
): SharedResource<T, A> {
  let held: Promise<T> | undefined;
  let holders = 0;
  return {
    async acquire(...args) {
      holders += 1;
      held ??= open(...args);
      try {
        return await held;
      } catch (error) {
        // A failed open is no one's: the next holder tries again.
        holders -= 1;
        held = undefined;
        throw error;
      }
    },
    async release() {
      holders -= 1;
      if (holders > 0 || held === undefined) return;
      const value = await held;
      held = undefined;
      await close(value);
    },
  };
}
