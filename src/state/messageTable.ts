/**
 * One environment's messages in the order they were stored, with each one's shown status as a byte in
 * a column: status filters over 100k messages scan that column instead of visiting every record (a scan
 * of scattered records was bound by cache misses: 9-28 ms per query, docs/decisions/0001-fast-lane.md).
 */

import { type MessageRecord, type ShownStatus, shownStatus, shownStatuses } from '../domain/message.js';

/** The column's byte for a shown status; -1 (never in the column) for any other text. */
export function statusCode(status: string): number {
  return shownStatuses.indexOf(status as ShownStatus);
}

/** The column's byte for a position whose message was removed with its account: no status filter matches it. */
const vacant = 255;

export class MessageTable {
  /**
   * Every message, oldest first, deleted ones included; a message's index here is its position. A removed account's
   * messages stay as vacant positions until the owner compacts the table (see Store), so removing one costs what the
   * account held, not what the table holds.
   */
  readonly records: MessageRecord[] = [];
  private codes = new Uint8Array(1024);
  private readonly positions = new Map<string, number>();
  /** How many positions are vacant. */
  vacancies = 0;

  /** Stores `message` last and answers its position. */
  add(message: MessageRecord): number {
    const position = this.records.length;
    this.records.push(message);
    this.positions.set(message.id, position);
    if (position === this.codes.length) {
      const grown = new Uint8Array(position * 2);
      grown.set(this.codes);
      this.codes = grown;
    }
    this.codes[position] = statusCode(shownStatus(message));
    return position;
  }

  get(id: string): MessageRecord | undefined {
    const position = this.positions.get(id);
    return position === undefined ? undefined : this.records[position];
  }

  /** Takes the message's shown status into the column again; every status change and delete calls it. */
  refresh(message: MessageRecord): void {
    const position = this.positions.get(message.id);
    if (position !== undefined && this.records[position] === message)
      this.codes[position] = statusCode(shownStatus(message));
  }

  /** Removes the message at `position` from every lookup and filter; its slot stays until the table is rebuilt. */
  vacate(position: number): void {
    const message = this.records[position] as MessageRecord;
    if (this.codes[position] === vacant) return;
    this.positions.delete(message.id);
    this.codes[position] = vacant;
    this.vacancies += 1;
  }

  /** Whether the message at `position` was removed. */
  isVacant(position: number): boolean {
    return this.codes[position] === vacant;
  }

  /** The status code of the message at `position`. */
  code(position: number): number {
    return this.codes[position] as number;
  }
}
