/** The one error the API client throws: the API's error code, HTTP status, description and documentation link. */

import type { ErrorCode } from '../domain/errors.js';

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

  constructor(
    code: SmsApiError['code'],
    status: number,
    description: string,
    documentationUrl = '',
    options?: { cause?: unknown },
  ) {
    super(`SMS API ${code} (HTTP ${status}): ${description}`, options);
    this.name = 'SmsApiError';
    this.code = code;
    this.status = status;
    this.description = description;
    this.documentationUrl = documentationUrl;
  }
}
