/** One line of `--log-requests` output for a journal entry: readable text, or the entry as one JSON object. */

import type { logFormats } from '../options.js';
import type { JournalEntry } from './requestJournal.js';

export type LogFormat = (typeof logFormats)[number];

// eslint-disable-next-line no-control-regex -- control characters are what it finds
const controlCharacters = /[\u0000-\u001f\u007f]/g;

/** `2026-11-21T12:00:00+02:00 POST /v1/messages 400 SIGNATURE_MISMATCH live pk_test 1.2ms` (virtual time first). */
export function logLine(entry: JournalEntry, format: LogFormat): string {
  if (format === 'json') return JSON.stringify(entry);
  const target = entry.query === '' ? entry.path : `${entry.path}?${entry.query}`;
  const parts = [
    entry.time,
    entry.method,
    target,
    String(entry.status),
    entry.code,
    entry.environment,
    entry.account ?? '-',
    `${entry.durationMs}ms`,
    entry.messageId,
  ];
  // A decoded path or id and a Basic username may hold line breaks: shown escaped, a request cannot forge a line.
  return parts
    .filter((part) => part !== null)
    .join(' ')
    .replace(controlCharacters, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
