import { test } from './reminderTest.js';

// Magic numbers of the emulator's built-in scenario: one replies "Thanks, got it!", one replies STOP, 30 s after delivery.
const repliesThanks = '27830000007';
const repliesStop = '27830000008';

test.concurrent(
  'a STOP reply opts the patient out and the app sends nothing more to them',
  async ({ app, sms, expect }) => {
    const reminder = await app.sendNow(repliesStop, 'Your appointment is today at 15:00');
    await sms.waitFor(reminder.id).toReach('delivered', { within: '1m' });
    await sms.clock.advance('30s');
    expect(sms).toHaveReceivedWebhook({ type: 'sms-reply', recipient: repliesStop, text: 'STOP' });
    expect(app.isOptedOut(repliesStop)).toBe(true);
    await expect(app.sendNow(repliesStop, 'Another one')).rejects.toThrow(/opted out/);
    await expect(sms).not.toHaveSent({ text: 'Another one' });
  },
);

test.concurrent('another reply is kept and opts nobody out', async ({ app, sms, expect }) => {
  const reminder = await app.sendNow(repliesThanks, 'Your appointment is today at 16:00');
  await sms.waitFor(reminder.id).toReach('delivered', { within: '1m' });
  await sms.clock.advance('30s');
  expect(app.replies).toEqual([{ from: repliesThanks, text: 'Thanks, got it!' }]);
  expect(app.isOptedOut(repliesThanks)).toBe(false);
});
