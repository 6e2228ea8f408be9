/** useEmulatorTime: gives the code under test the emulator's time through vitest's mocked Date. */

import { vi } from 'vitest';

/**
 * Sets the mocked system time (`vi.setSystemTime`) to the emulator's current time, so `new Date()`
 * and `Date.now()` in the app read the emulator's clock. Call it again after moving the clock, and
 * `vi.useRealTimers()` to undo. Resolves with the time set.
 *
 * @example
 * await useEmulatorTime(emulator);
 * app.scheduleReminder('tomorrow'); // tomorrow on the emulator's clock
 */
export async function useEmulatorTime(emulator: { readonly clock: { now(): Date | Promise<Date> } }): Promise<Date> {
  const now = await emulator.clock.now();
  vi.setSystemTime(now);
  return now;
}
