/** A growable list of table positions (one account's messages in one environment, in the order stored), 4 bytes each. */

export class PositionList {
  private items = new Int32Array(8);
  length = 0;

  push(position: number): void {
    if (this.length === this.items.length) {
      const grown = new Int32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = position;
  }

  /** The position at `index` (0 is the oldest); the caller keeps `index` below `length`. */
  at(index: number): number {
    return this.items[index] as number;
  }
}
