/** Checks the Signature header against the body fields and the account's signing secret. */

import { ApiError } from '../../domain/errors.js';
import { quoteExcerpt, excerptLength } from '../../domain/excerpt.js';
import { type RequestFields, canonicalString, signatureMatches } from '../../domain/signing.js';
import type { Account } from '../../state/store.js';

export function verifySignature(
  account: Account,
  fields: RequestFields,
  header: string | undefined,
  required: boolean,
): void {
  if (header === undefined || header.trim() === '') {
    if (required)
      throw new ApiError(
        'SIGNATURE_MISSING',
        'The Signature header is missing: sign the body with your signing secret.',
      );
    return;
  }
  if (!signatureMatches(fields, account.signingSecret, header)) {
    throw new ApiError(
      'SIGNATURE_MISMATCH',
      `The Signature header does not match the body: HMAC-SHA256 (lowercase hex) of the fields sorted by name, blanks dropped, name[]=value for arrays, RFC 3986 encoded, joined with &. ${signedString(fields)}`,
    );
  }
}

/** What the emulator signed, so a client can compare its own string: whole when short, else its start and where to see all of it. */
function signedString(fields: RequestFields): string {
  const signed = canonicalString(fields);
  const shown = `The emulator signed ${quoteExcerpt(signed)}`;
  if (signed.length <= excerptLength) return `${shown}.`;
  return `${shown} (${signed.length} characters; POST /_emulator/sign with the same body answers the whole string).`;
}
