import { test } from './reminderTest.js';

// Another file, run in parallel with booking.test.ts: each test waits a virtual day (and more) for its own reminder.
for (const hour of [9, 13, 17]) {
  test.concurrent(`the ${hour}:00 reminder is delivered a day later`, async ({ app, sms, expect }) => {
    const reminder = await app.remindTomorrow('27831234567', `Your appointment is tomorrow at ${hour}:00`);
    await sms.waitFor(reminder.id).toReach('delivered', { within: '25h' });
    await sms.clock.advance('2d');
    expect(app.reminder(reminder.id)).toHaveStatus('delivered');
  });
}
