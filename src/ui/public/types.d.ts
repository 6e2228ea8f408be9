// The shapes the inbox reads, named once: each is the type the emulator's live feed and control API answer with.
// Type-checking only (tsconfig.inbox.json): the browser never loads this file.

export type { FeedLists, FeedState, FeedUpdate } from '../feedViews.js';
export type { ClockView, TestClockView } from '../../control/views.js';
export type { AccountView } from '../../engine/inspection.js';
export type { ChangeView, LegView, MessageView } from '../../domain/messageView.js';
export type { WebhookEvent } from '../../domain/webhookEvent.js';
export type { JournalEntry } from '../../journal/requestJournal.js';

/** What the message page knows of the request that created a message: its journal entry, or why there is none. */
export interface JournalLookup {
  entry?: import('../../journal/requestJournal.js').JournalEntry;
  unavailable?: string;
}
