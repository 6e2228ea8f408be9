/** The one error the API client throws: the API's error code, HTTP status, description and documentation link. */

import type { ErrorCode } from '../domain/errors.js';
import { retryAfterSeconds } from './retryAfter.js';

/**
 * Codes the client itself gives when no API error body came back: the request never got an answer
 * (`NETWORK_ERROR`, status 0), the answer was not an API error object (`UNEXPECTED_RESPONSE`), or
 * the call was refused before any request because its message id cannot name a message
 * (`INVALID_MESSAGE_ID`, status 0).
 */
export type ClientErrorCode = 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE' | 'INVALID_MESSAGE_ID';

/**
 * Thrown by every client call that does not succeed.
 *
 * @example
 * try { await sms.send({ recipient: ['27831234567'], message: 'Hi' }); }
 * catch (error) { if (error instanceof SmsApiError && error.code === 'INSUFFICIENT_BALANCE') topUp(); }
 */
export class SmsApiError extends Error {
  /** The API's error code (`message` of the error body), or a {@link ClientErrorCode}. */
  readonly code: ErrorCode | ClientErrorCode | (string & {});
  /** HTTP status of the answer; 0 when there was none. */
  readonly status: number;
  /** The API's human-readable description. */
  readonly description: string;
  /** Where the API documents this error and its fix (empty when the answer carried none). */
  readonly documentationUrl: string;
  /** The answer's headers, names in lowercase (empty when there was no answer). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Whole seconds to wait before trying again, from the answer's `Retry-After` as RFC 9110 defines it (a non-negative
   * integer, or an HTTP-date counted from now), at most a day (86,400); undefined when it has none or another value
   * (`-1`, `1.5`, `12/31/2099`). Against the emulator they are seconds of the account's clock: move the test's clock
   * by them (`sms.clock.advance(`${error.retryAfter}s`)`); a real-time sleep never clears an emulated rate limit.
   */
  readonly retryAfter: number | undefined;

  constructor(
    code: SmsApiError['code'],
    status: number,
    description: string,
    documentationUrl = '',
    options: { cause?: unknown; headers?: Headers | Readonly<Record<string, string>> } = {},
  ) {
    super(`SMS API ${code} (HTTP ${status}): ${description}`, { cause: options.cause });
    this.name = 'SmsApiError';
    this.code = code;
    this.status = status;
    this.description = description;
    this.documentationUrl = documentationUrl;
    this.headers = headerRecord(options.headers);
    this.retryAfter = retryAfterSeconds(this.headers['retry-after']);
  }
}

function headerRecord(headers: Headers | Readonly<Record<string, string>> | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((value, name) => (record[name] = value));
  else for (const [name, value] of Object.entries(headers ?? {})) record[name.toLowerCase()] = value;
  return record;
}
