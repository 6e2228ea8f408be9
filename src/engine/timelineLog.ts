/** A bounded log of what the timeline report needs and nothing else keeps: clock moves and injected faults. */

import type { EmulatorEmitter, EngineEvents } from '../events.js';

export type TimelineNote =
  ({ kind: 'clock' } & EngineEvents['clock.moved']) | ({ kind: 'fault' } & EngineEvents['fault.injected']);

/** Most notes kept; the oldest go first (a long realtime run must not grow memory without end). */
export const timelineLogLimit = 10_000;

export class TimelineLog {
  private notes: TimelineNote[] = [];

  constructor(events: EmulatorEmitter) {
    events.on('clock.moved', (moved) => this.add({ kind: 'clock', ...moved }));
    events.on('fault.injected', (fault) => this.add({ kind: 'fault', ...fault }));
  }

  list(): readonly TimelineNote[] {
    return this.notes;
  }

  clear(): void {
    this.notes = [];
  }

  private add(note: TimelineNote): void {
    this.notes.push(note);
    if (this.notes.length > timelineLogLimit) this.notes.splice(0, this.notes.length - timelineLogLimit);
  }
}
