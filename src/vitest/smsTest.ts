/** createSmsTest: a vitest `test` whose `sms` fixture gives each test a fresh account, a wired webhook catcher and a typed client. */

import { randomUUID } from 'node:crypto';
import { test as baseTest, inject } from 'vitest';
import { type SmsClient, createClient } from '../client/createClient.js';
import type { WebhookPayload } from '../client/types.js';
import { type Emulator, createEmulator } from '../emulator.js';
import type { AccountInput } from '../engine/controlInput.js';
import type { MessageView } from '../engine/inspection.js';
import type { EmulatorOptions } from '../options.js';
import { type RemoteEmulator, connect } from '../testing/connect.js';
import type { MessageWait } from '../testing/waitFor.js';
import { type WebhookCatcher, createWebhookCatcher } from '../testing/webhookCatcher.js';
import { type MaybeReporting, attachReport } from './attachReport.js';
import './globalSetup.js';
import type { SmsSubject } from './matchers.js';

/** The emulator of a test file: embedded (`createEmulator`), or a process started by `smsGlobalSetup` and reached with `connect`. */
export type SmsEmulator = Emulator | RemoteEmulator;

export interface SmsTestOptions {
  /** Options of the emulator each test file embeds (e.g. `{ clock: 'manual' }`; it listens on a free port), unless `smsGlobalSetup` started a process. */
  emulator?: EmulatorOptions;
  /** Settings of every test's account (its `apiKey` and webhook URLs are the fixture's). */
  account?: Omit<AccountInput, 'apiKey' | 'webhookUrl' | 'sandboxWebhookUrl'>;
}

/** What each test receives as `sms`: its own account on the shared emulator, with a client and a catcher wired to it. */
export interface SmsContext extends SmsSubject {
  /** The emulator this file's tests share: every answer may be awaited, in process or over HTTP. */
  readonly emulator: SmsEmulator;
  /** The test's own account, created before the test and deleted after it. */
  readonly account: { readonly apiKey: string; readonly signingSecret: string };
  /** The live base URL to give the app under test. */
  readonly baseUrl: string;
  /** A typed API client signed in as the test's account. */
  readonly client: SmsClient;
  /** Receives the account's webhooks (live and sandbox), already set as its URL. */
  readonly catcher: WebhookCatcher;
  /** The account's messages with legs and history, newest first (a promise over HTTP). */
  messages(): MessageView[] | Promise<MessageView[]>;
  /** The webhook payloads received so far, in arrival order. */
  webhooks(): WebhookPayload[];
  /** Waits for a message to reach a status on the emulator's clock: `await sms.waitFor(id).toReach('delivered')`. */
  waitFor(messageId: string): MessageWait;
}

/**
 * A vitest `test` with the `sms` fixture (and the file-wide `emulator`). Tests in a file may run
 * concurrently (`test.concurrent`): each has its own account, so they never see each other's
 * messages, balances or webhooks. They share the emulator's clock.
 *
 * @example
 * const test = createSmsTest({ emulator: { clock: 'manual' } });
 * test.concurrent('sends a reminder', async ({ sms, expect }) => {
 *   const sent = await sms.client.send({ recipient: '27831234567', message: 'See you at 10' });
 *   await sms.waitFor(sent.id).toReach('delivered');
 *   expect(sms).toHaveReceivedWebhook({ id: sent.id, status: 'delivered' });
 * });
 */
export function createSmsTest(options: SmsTestOptions = {}) {
  return baseTest.extend<{ $test: { sms: SmsContext }; $file: { emulator: SmsEmulator } }>({
    emulator: [
      // eslint-disable-next-line no-empty-pattern -- vitest reads the fixture's dependencies from this pattern
      async ({}, use) => {
        const provided = inject('smsEmulator');
        if (provided !== undefined) return use(connect(provided.origin, { controlToken: provided.controlToken ?? undefined }));
        const emulator = createEmulator(options.emulator);
        await emulator.listen({ port: 0 });
        await use(emulator);
        await emulator.close();
      },
      { scope: 'file' },
    ],
    sms: async ({ emulator, onTestFailed, annotate }, use) => {
      const catcher = await createWebhookCatcher();
      const apiKey = `pk_test_${randomUUID()}`;
      const account = { apiKey, signingSecret: `sk_${apiKey.slice(3)}` };
      await emulator.accounts.create({ ...options.account, ...account, webhookUrl: catcher.url, sandboxWebhookUrl: catcher.url });
      const baseUrl = (emulator.urls as { live: string }).live;
      onTestFailed(() => attachReport(emulator as MaybeReporting, apiKey, annotate));
      await use({
        emulator,
        account,
        baseUrl,
        client: createClient({ baseUrl, ...account }),
        catcher,
        messages: () => {
          const page = emulator.messages.list({ account: apiKey, limit: 1000 });
          return page instanceof Promise ? page.then((answer) => answer.items) : page.items;
        },
        webhooks: () => catcher.received.map((request) => request.body as WebhookPayload),
        waitFor: (messageId) => emulator.waitFor(messageId),
      });
      await emulator.accounts.delete(apiKey);
      await catcher.close();
    },
  });
}
