import { formatSchedule } from 'sms-emulator/client';
import { useEmulatorTime } from 'sms-emulator/vitest';
import { vi } from 'vitest';
import { test } from './reminderTest.js';

// Not concurrent: the mocked Date is shared by the tests of a file.
test("the app's tomorrow is tomorrow on the emulator's clock", async ({ app, sms, expect, onTestFinished }) => {
  onTestFinished(() => void vi.useRealTimers());
  const now = await useEmulatorTime(sms.emulator);
  const reminder = await app.remindTomorrow('27831234567', 'Tomorrow, same time');
  expect(reminder.schedule?.slice(0, 16)).toBe(formatSchedule(new Date(now.getTime() + 24 * 60 * 60 * 1000)).slice(0, 16));
});
