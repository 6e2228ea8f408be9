/** The request journal: find entries (newest first) and count them. */

import { paginate, type Page } from '../../domain/list.js';
import type { JournalEntry, RequestJournal } from '../../journal/requestJournal.js';
import type { OperationDeps, Paged } from '../operation.js';
import type { OperationTable } from '../operation.js';
import { query } from '../argSpecs.js';
import { journalFilter } from '../../journal/requestJournal.js';

/** A filter as the journal takes it: parsed, so `status` is a number. */
type JournalQuery = Parameters<RequestJournal['find']>[0];

export function findRequests(
  { journal }: OperationDeps,
  { page, limit, ...filter }: Paged<JournalQuery>,
): Page<JournalEntry> {
  return paginate(journal.find(filter), page, limit);
}

export function countRequests({ journal }: OperationDeps, filter: JournalQuery): number {
  return journal.count(filter);
}

export const requestsRows = {
  find: {
    method: 'GET',
    path: '/requests',
    answer: 'JournalEntry',
    args: [query],
    input: journalFilter,
    inputName: 'request filter',
    pages: true,
    summary:
      'The request journal, newest first: every API request, accepted or rejected; filters `account`, `environment`, `method`, `path` (part of), `status`, `code`, `since` (emulator time, or a journal id), `message`.',
    run: findRequests,
  },
  count: {
    method: 'GET',
    path: '/requests/count',
    answer: 'Count',
    args: [query],
    input: journalFilter,
    inputName: 'request filter',
    summary: 'How many journal entries match the same filters: a number.',
    run: countRequests,
  },
} satisfies OperationTable['requests'];
