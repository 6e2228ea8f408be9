/** The shape of an account's API key and webhook URL: one rule each for options, scenarios, the control API and snapshots. */

import { z } from 'zod';
import { maskedCredential } from './credentials.js';

/**
 * `pk_` and then visible characters. A colon or a control character could never reach the emulator
 * as an HTTP Basic username (the colon ends it), so such a key could not authenticate at all.
 */
export const apiKeySchema = z
  .string()
  .regex(/^pk_[^\s:\p{Cc}]+$/u, 'expected text starting with pk_, without spaces, colons or control characters');

/**
 * Webhooks are posted over HTTP, so any other scheme (ftp:, file:, javascript:) would only fail every try. A password
 * that is the mask every view shows (`http://user:***@host/…`) was copied from a view: posting it would only be refused
 * by the receiver, so it is refused here, naming why.
 */
export const webhookUrlSchema = z
  .url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' })
  .refine((url) => !URL.canParse(url) || new URL(url).password !== maskedCredential, {
    error: `its password is ${maskedCredential}, the mask views show in its place: give the URL with the real password`,
  });
