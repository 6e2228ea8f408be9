/** worldActs: the acts of decision 0003's world facade that `sms` offers as thin calls of the control handle, scoped to the test's account. */

import type { Environment } from '../domain/environment.js';
import type { MessageView } from '../domain/messageView.js';
import type { Spend } from '../domain/spend.js';
import type { WebhookEvent } from '../domain/webhookEvent.js';
import type { WebhookFilterInput } from '../control/inputs.js';
import type { OptOutView } from '../control/views.js';
import type { Emulator } from '../emulator.js';
import type { RemoteEmulator } from '../testing/connect.js';

/** The acts every door's world offers (docs/decisions/0003-one-facade.md); each answers a promise, embedded and in process mode. */
export interface SmsWorldActs {
  /**
   * The test's message sent with this `client_reference` (the newest when several were), or `undefined` when none was.
   * @example const booking = await sms.messageByReference('booking-42');
   */
  messageByReference(clientReference: string): Promise<MessageView | undefined>;
  /**
   * The emulator's webhook log of the test's account, oldest first: every event with every try and the answer it got.
   * @example const failed = await sms.webhookLog({ message: sent.id, state: 'failed' });
   */
  webhookLog(filter?: Omit<WebhookFilterInput, 'account'>): Promise<WebhookEvent[]>;
  /**
   * Injects an inbound reply to a message the test sent (the text first; `from` defaults to its first recipient) and
   * answers the reply, after its webhook was tried.
   * @example await sms.reply(sent.id, 'STOP');
   */
  reply(messageId: string, text: string, from?: string): Promise<MessageView>;
  /**
   * Opts a number out of the test's account, in the test's environment unless told.
   * @example await sms.optOut('27831234567');
   */
  optOut(number: string, environment?: Environment): Promise<OptOutView>;
  /**
   * The test account's balance in credits, in the test's environment unless told.
   * @example expect(await sms.balance()).toBe(49);
   */
  balance(environment?: Environment): Promise<number>;
  /**
   * The HTML timeline report of the test's account (what a failed test gets attached).
   * @example await writeFile('timeline.html', await sms.timelineHtml());
   */
  timelineHtml(): Promise<string>;
  /**
   * What the test's account spent: its credits, its messages, the five costliest with why each cost that, and the
   * summary a budget failure prints (the emulator's accounts.spend).
   * @example expect((await sms.spend()).credits).toBe(2);
   */
  spend(): Promise<Spend>;
}

/** The acts for the account `apiKey` whose client uses `environment`, on an embedded emulator or one reached over HTTP. */
export function worldActs(emulator: Emulator | RemoteEmulator, apiKey: string, environment: Environment): SmsWorldActs {
  // Both handles report; their overloads are read through the one signature used here.
  const reporting: { report(options: { account: string }): string | Promise<string> } = emulator;
  return {
    messageByReference: async (clientReference) =>
      (await emulator.messages.list({ account: apiKey, clientReference, limit: 1 })).items[0],
    webhookLog: async (filter = {}) =>
      (await emulator.webhooks.list({ ...filter, account: apiKey, limit: 1000 })).items,
    reply: (messageId, text, from) =>
      emulator.replies.inject(messageId, from === undefined ? { text } : { text, from }),
    optOut: async (number, target = environment) =>
      emulator.optOuts.add(number, { account: apiKey, environment: target }),
    balance: async (target = environment) => (await emulator.accounts.get(apiKey))[target].balance,
    timelineHtml: async () => reporting.report({ account: apiKey }),
    spend: async () => emulator.accounts.spend(apiKey),
  };
}
