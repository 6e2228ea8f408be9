import { formatSchedule } from 'sms-emulator/client';
import { test } from './reminderTest.js';

// The app takes the test clock's time (`now: () => sms.now()`), so tests run concurrently, each with its own "now".
test.concurrent("the app's tomorrow is tomorrow on the test's clock", async ({ app, sms, expect }) => {
  await sms.clock.advance('3h');
  const reminder = await app.remindTomorrow('27831234567', 'Tomorrow, same time');
  expect(reminder.schedule?.slice(0, 16)).toBe(
    formatSchedule(new Date(sms.now().getTime() + 24 * 60 * 60 * 1000)).slice(0, 16),
  );
});
