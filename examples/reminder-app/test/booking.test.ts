import { test } from './reminderTest.js';

const patient = '27831234567';

// The trial of issue 16: these ran beside tests that wait a day for their own reminders (here and in dayLater.test.ts),
// which moved the one clock and delivered this reminder too. On its own test clock, five minutes are five minutes.
test.concurrent(
  "a fresh booking's reminder is still scheduled five virtual minutes later",
  async ({ app, sms, expect }) => {
    const reminder = await app.remindTomorrow(patient, 'Your appointment is tomorrow at 10:00');
    await sms.clock.advance('5m');
    await expect(await sms.client.get(reminder.id)).toHaveStatus('scheduled');
    expect(app.reminder(reminder.id)).toHaveStatus('scheduled');
  },
);

test.concurrent(
  "a booking's reminder is delivered the next day and the app hears about it",
  async ({ app, sms, expect }) => {
    const reminder = await app.remindTomorrow(patient, 'Your appointment is tomorrow at 11:00');
    await sms.waitFor(reminder.id).toReach('delivered', { within: '25h' });
    expect(sms).toHaveReceivedWebhook({ id: reminder.id, status: 'delivered' });
    expect(app.reminder(reminder.id)).toHaveStatus('delivered');
  },
);

test.concurrent(
  'a second fresh booking is still scheduled five virtual minutes later',
  async ({ app, sms, expect }) => {
    const reminder = await app.remindTomorrow(patient, 'Your appointment is tomorrow at 12:00');
    await sms.clock.advance('5m');
    await expect(await sms.client.get(reminder.id)).toHaveStatus('scheduled');
    await expect(sms).toHaveMadeRequest({ method: 'POST', path: '/v1/messages' }, 1);
  },
);
