/** The schedule window (15 minutes to 7 days ahead of the clock) and its format, in numbers and in the words every text about them uses. */

export const minimumLead = { ms: 15 * 60_000, words: '15 minutes' } as const;
export const maximumLead = { ms: 7 * 24 * 60 * 60_000, words: '7 days' } as const;

/** The spec's default when a schedule carries no offset: GMT+2. */
export const defaultScheduleOffsetMinutes = 120;

/** The accepted forms, as every message and document writes them. */
export const scheduleFormat = 'YYYY-MM-DDTHH:MM[:SS][(+-)HH:MM|Z]';

/** "between 15 minutes and 7 days ahead" */
export const scheduleWindowWords = `between ${minimumLead.words} and ${maximumLead.words} ahead`;

/** "no offset means +02:00" */
export const defaultOffsetWords = `no offset means +0${defaultScheduleOffsetMinutes / 60}:00`;
