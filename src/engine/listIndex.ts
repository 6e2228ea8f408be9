/**
 * A prefilter for the list `search` and `recipient` filters: the searchable text of every message in
 * one string, so a query is one `indexOf` sweep over contiguous memory. Visiting 100k scattered records
 * was bound by cache misses (31-34 ms per query: docs/decisions/0001-fast-lane.md). The answer is exact: a needle that
 * could span two entries (one holding the separator, or a comma for recipients) gets no answer, and the
 * caller scans instead; so a broad search that matches every message does not lowercase every text again.
 */

import type { MessageRecord } from '../domain/message.js';

/** Between entries: a needle holding it is left to the full scan. */
const separator = '\u0000';
/** Between a message's recipients in the recipient column: a needle holding it is left to the full scan too. */
const recipientSeparator = ',';

/** One field of every message, lowercased or not, joined; `starts[i]` is where message i begins. */
class Column {
  joined = '';
  starts: number[] = [];

  constructor(
    private readonly text: (message: MessageRecord) => string,
    private readonly lowercase: boolean,
  ) {}

  /**
   * Adds `list[from]` to `list[to - 1]`, joined in one go and lowercased in one call: a first query over 100k
   * messages makes one flat string (one by one, it made a rope of 100k parts and 100k lowercased copies).
   */
  add(list: readonly MessageRecord[], from: number, to: number): void {
    const parts: string[] = [];
    for (let i = from; i < to; i++) parts.push(this.text(list[i] as MessageRecord));
    parts.push('');
    let added = parts.join(separator);
    if (this.lowercase) {
      const lowered = added.toLowerCase();
      // The starts come from the lengths before lowercasing. No character lowercases to fewer UTF-16 units, a few
      // to more (İ): when the length changed, each entry is lowercased alone and measured again.
      if (lowered.length === added.length) added = lowered;
      else {
        parts.forEach((part, i) => (parts[i] = part.toLowerCase()));
        added = parts.join(separator);
      }
    }
    let start = this.joined.length;
    for (let i = 0; i < parts.length - 1; i++) {
      this.starts.push(start);
      start += (parts[i] as string).length + separator.length;
    }
    this.joined += added;
  }

  /** Positions (in list order) of the messages whose text contains `needle`, each once. */
  candidates(needle: string): number[] {
    // Every text contains the empty needle; the sweep below would find it at the end of the string forever.
    if (needle === '') return this.starts.map((_, position) => position);
    const found: number[] = [];
    for (let from = 0; ;) {
      const at = this.joined.indexOf(needle, from);
      if (at < 0) return found;
      const entry = lastStartAtOrBefore(this.starts, at);
      found.push(entry);
      from = this.starts[entry + 1] ?? this.joined.length;
    }
  }
}

function lastStartAtOrBefore(starts: readonly number[], position: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}

export type IndexedField = 'search' | 'recipient';

/**
 * The index of one message list (an account's messages in one environment, oldest first). It follows
 * the list as it grows and rebuilds itself when the list changed otherwise (a delete); an edit that
 * changes a message's text or recipients in place must drop the index (see Messaging.edit).
 */
export class ListIndex {
  private count = 0;
  private last: MessageRecord | undefined;
  private columns = ListIndex.emptyColumns();

  constructor(private readonly list: readonly MessageRecord[]) {}

  /**
   * Positions in the list of the messages whose `field` contains `needle` (lowercase it for search: the text is
   * lowercased like the filter does), or undefined when only a full scan can tell.
   */
  candidates(field: IndexedField, needle: string): number[] | undefined {
    if (needle.includes(separator) || (field === 'recipient' && needle.includes(recipientSeparator))) return undefined;
    this.follow();
    return this.columns[field].candidates(needle);
  }

  /**
   * Indexes up to `count` more messages. Every list read calls it, so the index over a long list is built a slice
   * at a time before the first search needs it, instead of blocking the event loop for the whole list inside it.
   */
  advance(count: number): void {
    this.follow(count);
  }

  private follow(most = Infinity): void {
    const { list } = this;
    // Only appended to since the last query: the entry last indexed is still where it was.
    const appendedOnly = list.length >= this.count && (this.count === 0 || list[this.count - 1] === this.last);
    if (!appendedOnly) {
      this.count = 0;
      this.columns = ListIndex.emptyColumns();
    }
    const to = Math.min(list.length, this.count + most);
    if (this.count < to) {
      this.columns.search.add(list, this.count, to);
      this.columns.recipient.add(list, this.count, to);
      this.count = to;
    }
    this.last = list[this.count - 1];
  }

  private static emptyColumns(): Record<IndexedField, Column> {
    return {
      search: new Column((message) => message.text, true),
      recipient: new Column(
        (message) =>
          message.recipients.length === 1
            ? (message.recipients[0] as string)
            : message.recipients.join(recipientSeparator),
        false,
      ),
    };
  }
}
