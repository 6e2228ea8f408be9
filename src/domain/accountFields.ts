/** The shape of an account's API key and webhook URL: one rule each for options, scenarios, the control API and snapshots. */

import { z } from 'zod';

/**
 * `pk_` and then visible characters. A colon or a control character could never reach the emulator
 * as an HTTP Basic username (the colon ends it), so such a key could not authenticate at all.
 */
export const apiKeySchema = z
  .string()
  .regex(/^pk_[^\s:\p{Cc}]+$/u, 'expected text starting with pk_, without spaces, colons or control characters');

/** Webhooks are posted over HTTP, so any other scheme (ftp:, file:, javascript:) would only fail every try. */
export const webhookUrlSchema = z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' });
