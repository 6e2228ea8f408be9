/** createSmsTest: a vitest `test` whose `sms` fixture gives each test a fresh account, a wired webhook catcher and a typed client. */

import { randomUUID } from 'node:crypto';
import { test as baseTest, inject } from 'vitest';
import { type SmsClient, createClient } from '../client/createClient.js';
import type { WebhookPayload } from '../client/types.js';
import { ApiError } from '../domain/errors.js';
import { type Emulator, createEmulator } from '../emulator.js';
import type { AccountInput } from '../engine/controlInput.js';
import type { MessageView } from '../engine/inspection.js';
import type { EmulatorOptions } from '../options.js';
import { type RemoteEmulator, connect } from '../testing/connect.js';
import type { MessageWait } from '../control/waitFor.js';
import { type CatcherServer, type WebhookCatcher, createCatcherServer } from '../testing/webhookCatcher.js';
import { attachReport } from './attachReport.js';
import { type ProvidedEmulator } from './globalSetup.js';
import { type SmsSubject, registerSubject } from './matchers.js';

/** The emulator of a test file: embedded (`createEmulator`), or a process started by `smsGlobalSetup` and reached with `connect`. */
export type SmsEmulator = Emulator | RemoteEmulator;

export interface SmsTestOptions {
  /**
   * Options of the emulator each test file embeds (e.g. `{ seed: 'ci' }`; it listens on a free port). Under
   * `smsGlobalSetup` the tests use the process it started: options given here must then be the same as the ones given
   * to `smsGlobalSetup` (share one object), and any other is refused, as it could not apply.
   */
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
  /** A typed API client signed in as the test's account (embedded: in process, without a socket; over HTTP in process mode). */
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
  return baseTest.extend<{ $test: { sms: SmsContext }; $file: { emulator: SmsEmulator }; $worker: { smsCatchers: CatcherServer } }>({
    smsCatchers: [
      // One receiver per worker, routed by account: a test costs a route, not a server.
      // eslint-disable-next-line no-empty-pattern -- vitest reads the fixture's dependencies from this pattern
      async ({}, use) => {
        const server = await createCatcherServer();
        await use(server);
        await server.close();
      },
      { scope: 'worker' },
    ],
    emulator: [
      // eslint-disable-next-line no-empty-pattern -- vitest reads the fixture's dependencies from this pattern
      async ({}, use) => {
        const provided = inject('smsEmulator');
        if (provided !== undefined) {
          refuseOtherOptions(options.emulator, provided);
          return use(connect(provided.origin, { controlToken: provided.controlToken ?? undefined }));
        }
        const emulator = createEmulator(options.emulator);
        await emulator.listen({ port: 0 });
        await use(emulator);
        await emulator.close();
      },
      { scope: 'file' },
    ],
    sms: async ({ emulator, smsCatchers, task }, use) => {
      const apiKey = `pk_test_${randomUUID()}`;
      const catcher = smsCatchers.catcher(`/webhooks/${apiKey}`);
      const account = { apiKey, signingSecret: `sk_${apiKey.slice(3)}` };
      await emulator.accounts.create({ ...options.account, ...account, webhookUrl: catcher.url, sandboxWebhookUrl: catcher.url });
      const baseUrl = (emulator.urls as { live: string }).live;
      const sms: SmsContext = {
        emulator,
        account,
        baseUrl,
        // Embedded, the test's own client reaches the emulator in process (no socket); the app under test uses `baseUrl`.
        client: createClient({ baseUrl, ...account, fetch: 'fetch' in emulator ? emulator.fetch : undefined }),
        catcher,
        messages: () => {
          const page = emulator.messages.list({ account: apiKey, limit: 1000 });
          return page instanceof Promise ? page.then((answer) => answer.items) : page.items;
        },
        webhooks: () => catcher.received.map((request) => request.body as WebhookPayload),
        waitFor: (messageId) => emulator.waitFor(messageId),
      };
      registerSubject(task, sms);
      await use(sms);
      // The test has ended: a failed one gets the timeline while its account still exists.
      if (task.result?.state === 'fail') await attachReport(emulator, apiKey, task);
      await deleteAccount(emulator, apiKey);
      await catcher.close();
    },
  });
}

/** Under `smsGlobalSetup`, emulator options other than the process's own could not apply: refused, never ignored. */
function refuseOtherOptions(given: EmulatorOptions | undefined, provided: ProvidedEmulator): void {
  const differing = Object.entries(given ?? {}).filter(
    ([name, value]) => value !== undefined && JSON.stringify(value) !== JSON.stringify((provided.options as Record<string, unknown>)[name]),
  );
  if (differing.length === 0) return;
  const list = differing.map(([name, value]) => `${name}: ${JSON.stringify(value)}`).join(', ');
  throw new Error(
    `sms-emulator: createSmsTest({ emulator: { ${list} } }) cannot apply: smsGlobalSetup started the emulator process every file uses, with ${JSON.stringify(
      provided.options,
    )}. Give emulator options to smsGlobalSetup only, or the same object to both.`,
  );
}

/** A test may have deleted its account itself (or reset the emulator): that is no failure of the test. */
async function deleteAccount(emulator: SmsEmulator, apiKey: string): Promise<void> {
  try {
    await emulator.accounts.delete(apiKey);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'CONTROL_NOT_FOUND')) throw error;
  }
}
