/** The request journal: find entries (newest first) and count them. */

import { paginate, type Page } from '../../domain/list.js';
import type { JournalEntry, RequestJournal } from '../../journal/requestJournal.js';
import type { OperationDeps, Paged } from '../operation.js';

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
