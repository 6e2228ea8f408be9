/** The suite's `test`: the sms-emulator fixture plus the app under test, wired to the test's own account and clock. */

import { createSmsTest } from 'sms-emulator/vitest';
import { type ReminderApp, createReminderApp } from '../src/reminderApp.js';

// Each test's account lives on a test clock of its own: the app reads that clock, so "tomorrow" is the test's tomorrow.
export const test = createSmsTest().extend<{ app: ReminderApp }>({
  app: async ({ sms }, use) => {
    const app = createReminderApp({ baseUrl: sms.baseUrl, ...sms.account, now: () => sms.now() });
    // The account's webhooks reach the app through the fixture's catcher, which answers with the app's status.
    sms.catcher.respondWith((request) => app.handleWebhook(request.body));
    await use(app);
  },
});
