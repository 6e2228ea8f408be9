/** Validation of the send and edit fields, in the order and with the codes the API uses. */

import { ApiError } from './errors.js';
import { isValidMsisdn } from './msisdn.js';

export interface FieldLimits {
  batchLimit: number;
  messageLimit: number;
}

export const clientReferenceLimit = 100;

/** Text of a field that must hold text: numbers and booleans read as their text, anything else as blank. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** How many numbers a recipient field holds, as far as it can be counted (for the rejected-request charge). */
export function recipientCount(value: unknown): number {
  return Array.isArray(value) ? value.length : value === undefined ? 0 : 1;
}

export function validateRecipients(value: unknown, limits: FieldLimits): string[] {
  if (value === undefined) throw new ApiError('RECIPIENT_MISSING_PARAMETER');
  if (value === null) throw new ApiError('RECIPIENT_EMPTY_PARAMETER');
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list)) {
    throw new ApiError('INVALID_RECIPIENT_ENTRY', 'recipient must be an array of strings (or a single string).');
  }
  if (list.every((item) => typeof item === 'string' && isBlank(item))) throw new ApiError('RECIPIENT_EMPTY_PARAMETER');
  if (list.length > limits.batchLimit) {
    throw new ApiError(
      'BATCH_LIMIT_EXCEEDED',
      `${list.length} recipients were given; at most ${limits.batchLimit} are allowed per request.`,
    );
  }
  for (const item of list) {
    if (typeof item !== 'string' || !isValidMsisdn(item)) {
      throw new ApiError(
        'INVALID_RECIPIENT_ENTRY',
        `${JSON.stringify(item)} is not an 11-digit South African mobile number starting with 27 (no plus, leading zero, spaces or symbols).`,
      );
    }
  }
  return list as string[];
}

export function validateMessageText(value: unknown, limits: FieldLimits): string {
  if (value === undefined) throw new ApiError('MESSAGE_MISSING_PARAMETER');
  const text = textOf(value);
  if (isBlank(text)) throw new ApiError('MESSAGE_EMPTY_PARAMETER');
  const length = codePointLength(text);
  if (length > limits.messageLimit) {
    throw new ApiError(
      'MESSAGE_LIMIT_EXCEEDED',
      `The message is ${length} characters long; at most ${limits.messageLimit} are allowed.`,
    );
  }
  return text;
}

/** The message text a rejected send is charged for: the field's text cut at the message limit, so a huge text costs no more than the longest allowed one. */
export function chargeableText(value: unknown, limits: FieldLimits): string {
  const text = textOf(value);
  let count = 0;
  for (let index = 0; index < text.length; count += 1) {
    if (count === limits.messageLimit) return text.slice(0, index);
    index += (text.codePointAt(index) as number) > 0xffff ? 2 : 1;
  }
  return text;
}

/** `client_reference` text, or null when absent or blank (an object or array counts as absent). */
export function validateClientReference(value: unknown): string | null {
  const text = textOf(value);
  if (text === '') return null;
  const length = codePointLength(text);
  if (length > clientReferenceLimit) {
    throw new ApiError(
      'CLIENT_REFERENCE_LIMIT_EXCEEDED',
      `client_reference is ${length} characters long; at most ${clientReferenceLimit} are allowed.`,
    );
  }
  return text;
}

/** The schedule text, undefined when the field is absent; throws SCHEDULE_EMPTY_PARAMETER when blank. */
export function scheduleText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = textOf(value).trim();
  if (text === '') throw new ApiError('SCHEDULE_EMPTY_PARAMETER');
  return text;
}

function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}
