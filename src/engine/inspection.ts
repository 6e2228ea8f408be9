/** How the control API shows accounts. */

import { z } from 'zod';
import { type Account, scopes } from '../state/store.js';
import { settingsOf } from './accounts.js';
import { maskUrlCredentials } from '../domain/credentials.js';

/** One environment of an account: balance, webhook URL, opted-out numbers, and how many messages the API finds there. */
const walletViewSchema = z.strictObject({
  balance: z.int(),
  webhookUrl: z.string().nullable(),
  optOuts: z.array(z.string()),
  messages: z.int(),
});

/** An account's settings as the control API shows them, with each environment's message count (its scenario is read on its own). */
export const accountViewSchema = z.strictObject({
  apiKey: z.string(),
  signingSecret: z.string(),
  webhookSigningSecret: z
    .string()
    .nullable()
    .describe("Signs the account's webhooks (Webhook-Signature, hex HMAC-SHA256 of the body); null: unsigned."),
  scopes: z.array(z.enum(scopes)),
  live: walletViewSchema,
  sandbox: walletViewSchema,
  clock: z.string().nullable().describe('The test clock the account lives on; null for the main clock.'),
});
export type AccountView = z.output<typeof accountViewSchema>;

/**
 * The view's fields only: an account's own scenario stays out (its answer schema has none; it is read on its own). A
 * password in a webhook URL is masked, as everywhere an account is shown (the inbox draws this view); the signing secret
 * is not, since a test's catcher checks signatures with it. A snapshot keeps both whole.
 */
export function accountView(account: Account): AccountView {
  const settings = settingsOf(account);
  const { live, sandbox } = account.environments;
  return {
    apiKey: settings.apiKey,
    signingSecret: settings.signingSecret,
    webhookSigningSecret: settings.webhookSigningSecret,
    scopes: settings.scopes,
    live: { ...settings.live, webhookUrl: shownUrl(settings.live.webhookUrl), messages: live.messages.length },
    sandbox: {
      ...settings.sandbox,
      webhookUrl: shownUrl(settings.sandbox.webhookUrl),
      messages: sandbox.messages.length,
    },
    clock: settings.clock,
  };
}

const shownUrl = (url: string | null): string | null => (url === null ? null : maskUrlCredentials(url));

// src/engine/control.ts and src/control/ still import the message view from here; the control seam's move (issue 25) points them at domain/messageView.ts.
