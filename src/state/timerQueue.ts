/**
 * The clock's queue of timers, ordered by due time, then by insertion, so equal times fire in order.
 *
 * A binary min-heap whose keys sit in typed arrays (a comparison reads two numbers side by side, not two
 * objects spread over the heap) and whose entries are runs: timers pushed one after another for the same
 * instant are chained behind the first, and only the first is in the heap. A clock jump is that case
 * (every message sent at one manual instant is due at the same moment, and each step it fires arms the
 * next at one later instant), so it fires a run in constant time per timer instead of sifting a heap of
 * every leg (docs/decisions/0001-fast-lane.md). Timers pushed at distinct times are runs of one: a plain heap.
 */

export interface Timer {
  readonly due: number;
  readonly seq: number;
  readonly task: () => void;
  /** What the task is for, named in incident reports. */
  readonly label: string;
  /** True while the timer is queued; false once it fired, was cancelled or was cleared, so a late cancel changes no count. */
  pending: boolean;
}

/** A queued timer and the one pushed right after it for the same instant, if any (its run goes on there). */
interface RunTimer extends Timer {
  next: RunTimer | undefined;
}

const initialCapacity = 64;

export class TimerQueue {
  /** Due time and sequence number of each run's first timer, heap-ordered, and the timers themselves. */
  private dues = new Float64Array(initialCapacity);
  private seqs = new Float64Array(initialCapacity);
  private readonly heads: (RunTimer | undefined)[] = [];
  private length = 0;
  /** The timer pushed last, while its run is still queued: a push for the same instant joins that run. */
  private tail: RunTimer | undefined;
  private seq = 0;
  private live = 0;

  get size(): number {
    return this.live;
  }

  push(due: number, task: () => void, label: string): Timer {
    const timer: RunTimer = { due, seq: this.seq++, task, label, pending: true, next: undefined };
    this.live += 1;
    if (this.tail !== undefined && this.tail.due === due) this.tail.next = timer;
    else this.insert(timer);
    this.tail = timer;
    return timer;
  }

  cancel(timer: Timer): void {
    if (!timer.pending) return;
    timer.pending = false;
    this.live -= 1;
  }

  /** The earliest timer that is not cancelled, without removing it. */
  peek(): Timer | undefined {
    while (this.length > 0) {
      const head = this.heads[0] as RunTimer;
      if (head.pending) return head;
      this.advanceTop();
    }
    return undefined;
  }

  /** Removes and returns the earliest live timer due at or before `until`. */
  popDue(until: number): Timer | undefined {
    const top = this.peek();
    if (!top || top.due > until) return undefined;
    this.advanceTop();
    top.pending = false;
    this.live -= 1;
    return top;
  }

  clear(): void {
    for (let i = 0; i < this.length; i++) {
      for (let timer: RunTimer | undefined = this.heads[i]; timer; timer = timer.next) timer.pending = false;
    }
    this.heads.length = 0;
    this.length = 0;
    this.tail = undefined;
    this.live = 0;
  }

  /** Takes the first timer of the top run off: its run goes on with the next timer, or leaves the heap. */
  private advanceTop(): void {
    const head = this.heads[0] as RunTimer;
    const next = head.next;
    head.next = undefined;
    if (head === this.tail) this.tail = undefined;
    if (next) this.place(0, next);
    else this.removeTop();
  }

  private insert(timer: RunTimer): void {
    if (this.length === this.dues.length) this.grow();
    // Sift up with a hole: parents move down until the timer's place is found.
    const { dues, seqs, heads } = this;
    let i = this.length++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const due = dues[parent] as number;
      if (due < timer.due || (due === timer.due && (seqs[parent] as number) < timer.seq)) break;
      dues[i] = due;
      seqs[i] = seqs[parent] as number;
      heads[i] = heads[parent] as RunTimer;
      i = parent;
    }
    this.set(i, timer);
  }

  private removeTop(): void {
    const last = this.heads[--this.length] as RunTimer;
    this.heads[this.length] = undefined; // a fired timer must not stay reachable
    if (this.length > 0) this.place(0, last);
  }

  /** Puts `timer` at `i` and sifts it down (with a hole) to where it belongs; it is due no earlier than what was there. */
  private place(i: number, timer: RunTimer): void {
    const { dues, seqs, heads, length } = this;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= length) break;
      const right = child + 1;
      if (right < length && this.earlier(right, child)) child = right;
      const due = dues[child] as number;
      if (timer.due < due || (timer.due === due && timer.seq < (seqs[child] as number))) break;
      dues[i] = due;
      seqs[i] = seqs[child] as number;
      heads[i] = heads[child] as RunTimer;
      i = child;
    }
    this.set(i, timer);
  }

  private earlier(i: number, j: number): boolean {
    const a = this.dues[i] as number;
    const b = this.dues[j] as number;
    return a < b || (a === b && (this.seqs[i] as number) < (this.seqs[j] as number));
  }

  private set(i: number, timer: RunTimer): void {
    this.dues[i] = timer.due;
    this.seqs[i] = timer.seq;
    this.heads[i] = timer;
  }

  private grow(): void {
    const dues = new Float64Array(this.dues.length * 2);
    dues.set(this.dues);
    this.dues = dues;
    const seqs = new Float64Array(this.seqs.length * 2);
    seqs.set(this.seqs);
    this.seqs = seqs;
  }
}
