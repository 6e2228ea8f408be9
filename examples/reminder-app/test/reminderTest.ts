/** The suite's `test`: the sms-emulator fixture plus the app under test, wired to the test's own account. */

import { createSmsTest } from 'sms-emulator/vitest';
import { type ReminderApp, createReminderApp } from '../src/reminderApp.js';

export const test = createSmsTest({ emulator: { clock: 'manual' } }).extend<{ app: ReminderApp }>({
  app: async ({ sms }, use) => {
    const app = createReminderApp({ baseUrl: sms.baseUrl, ...sms.account });
    // The account's webhooks reach the app through the fixture's catcher, which answers with the app's status.
    sms.catcher.respondWith((request) => app.handleWebhook(request.body));
    await use(app);
  },
});
