/** The app's reminders, each test in a world of its own on whichever emulator the globalSetup started. */

import { createSmsTest } from 'sms-emulator/vitest';
import { bookReminder } from '../src/reminders.js';

const test = createSmsTest();

test('a reminder is delivered the day before the appointment, and its webhook arrives', async ({ sms, expect }) => {
  const appointment = new Date(sms.now().getTime() + 3 * 86_400_000);
  const id = await bookReminder({ baseUrl: sms.baseUrl, ...sms.account }, '27831234567', appointment);
  await sms.clock.advance('2d');
  await expect(sms.client.get(id)).resolves.toHaveStatus('scheduled');
  await sms.waitFor(id).toReach('delivered', { within: '1d' });
  expect(sms).toHaveReceivedWebhook({ id, status: 'delivered' });
});

test('a reminder to a number that is not a phone number is refused', async ({ sms, expect }) => {
  await expect(
    bookReminder(
      { baseUrl: sms.baseUrl, ...sms.account },
      'not-a-number',
      new Date(sms.now().getTime() + 3 * 86_400_000),
    ),
  ).rejects.toThrow();
  expect(await sms.messages()).toEqual([]);
});
