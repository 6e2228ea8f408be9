import { formatSchedule } from 'sms-emulator/client';
import { test } from './reminderTest.js';

const patient = '27831234567';

test.concurrent('a reminder sent now is delivered and the app hears about it', async ({ app, sms, expect }) => {
  const reminder = await app.sendNow(patient, 'Your appointment is today at 15:00');
  await sms.waitFor(reminder.id).toReach('delivered', { within: '1m' });
  await expect(sms).toHaveSent({ to: patient, text: /today at 15:00/ });
  expect(sms).toHaveReceivedWebhook({ id: reminder.id, status: 'delivered' });
  expect(app.reminder(reminder.id)).toHaveStatus('delivered');
});

test.concurrent('a reminder for tomorrow waits, scheduled, costing nothing yet', async ({ app, sms, expect }) => {
  const reminder = await app.remindTomorrow(patient, 'Your appointment is tomorrow at 10:00');
  expect(reminder).toHaveStatus('scheduled');
  await expect(sms).toHaveSent({ to: patient, status: 'scheduled' });
  expect((await sms.client.balance()).balance).toBe(1000);
});

test.concurrent('a cancelled reminder never goes out', async ({ app, sms, expect }) => {
  const reminder = await app.remindTomorrow(patient, 'Cancelled soon');
  await app.cancel(reminder.id);
  expect(app.reminder(reminder.id)).toBeUndefined();
  await expect(sms.client.get(reminder.id)).rejects.toMatchObject({ code: 'MESSAGE_NOT_FOUND' });
});

test.concurrent('a moved reminder goes out at its new time with its new text', async ({ app, sms, expect }) => {
  const reminder = await app.remindTomorrow(patient, 'See you tomorrow');
  const at = new Date(sms.now().getTime() + 2 * 60 * 60 * 1000);
  const moved = await app.reschedule(reminder.id, at, 'See you in two hours');
  expect(moved.schedule?.slice(0, 16)).toBe(formatSchedule(at).slice(0, 16));
  await sms.waitFor(reminder.id).toReach('delivered', { within: '3h' });
  expect(sms).toHaveReceivedWebhook({ id: reminder.id, status: 'delivered', text: 'See you in two hours' });
  expect(app.reminder(reminder.id)).toHaveStatus('delivered');
});
