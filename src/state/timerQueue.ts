/** A binary min-heap of timers ordered by due time, then by insertion, so equal times fire in order. */

export interface Timer {
  readonly due: number;
  readonly seq: number;
  readonly task: () => void;
  /** What the task is for, named in incident reports. */
  readonly label: string;
  /** True while the timer is queued; false once it fired, was cancelled or was cleared, so a late cancel changes no count. */
  pending: boolean;
}

export class TimerQueue {
  private readonly heap: Timer[] = [];
  private seq = 0;
  private live = 0;

  get size(): number {
    return this.live;
  }

  push(due: number, task: () => void, label: string): Timer {
    const timer: Timer = { due, seq: this.seq++, task, label, pending: true };
    this.heap.push(timer);
    this.live += 1;
    this.siftUp(this.heap.length - 1);
    return timer;
  }

  cancel(timer: Timer): void {
    if (!timer.pending) return;
    timer.pending = false;
    this.live -= 1;
  }

  /** The earliest timer that is not cancelled, without removing it. */
  peek(): Timer | undefined {
    this.dropCancelled();
    return this.heap[0];
  }

  /** Removes and returns the earliest live timer due at or before `until`. */
  popDue(until: number): Timer | undefined {
    const top = this.peek();
    if (!top || top.due > until) return undefined;
    this.removeTop();
    top.pending = false;
    this.live -= 1;
    return top;
  }

  clear(): void {
    for (const timer of this.heap) timer.pending = false;
    this.heap.length = 0;
    this.live = 0;
  }

  private dropCancelled(): void {
    while (this.heap[0]?.pending === false) this.removeTop();
  }

  private removeTop(): void {
    const last = this.heap.pop();
    if (last && this.heap.length > 0) {
      this.heap[0] = last;
      this.siftDown(0);
    }
  }

  private before(i: number, j: number): boolean {
    const a = this.heap[i] as Timer;
    const b = this.heap[j] as Timer;
    return a.due < b.due || (a.due === b.due && a.seq < b.seq);
  }

  private swap(i: number, j: number): void {
    const a = this.heap[i] as Timer;
    this.heap[i] = this.heap[j] as Timer;
    this.heap[j] = a;
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const n = this.heap.length;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < n && this.before(left, smallest)) smallest = left;
      if (right < n && this.before(right, smallest)) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}
