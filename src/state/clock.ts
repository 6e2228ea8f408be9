/** The emulator's virtual clock: realtime or manual, with an ordered queue of due tasks. */

// Imported from node:timers so a host test runner that fakes the global timers cannot stall the clock.
import { clearTimeout, setTimeout } from 'node:timers';
import { ApiError } from '../domain/errors.js';
import { type Timer, TimerQueue } from './timerQueue.js';

export type ClockMode = 'realtime' | 'manual';

/** Wall time as the host knows it; captured once so fake timers installed later do not change it. */
const hostNow = Date.now.bind(Date);

export interface ClockSettings {
  mode: ClockMode;
  /** How many virtual milliseconds pass per real millisecond in realtime mode. */
  speed: number;
  /** The instant the clock starts at (epoch ms). */
  startTime: number;
}

export interface ClockState {
  now: number;
  mode: ClockMode;
  speed: number;
  pendingTasks: number;
}

export class Clock {
  private mode: ClockMode;
  private speed: number;
  /** Virtual time at `wallAnchor` (realtime) or the current time (manual). */
  private anchor: number;
  private wallAnchor: number;
  /** While a task fires, the clock reads as that task's due time. */
  private firingAt: number | undefined;
  private readonly queue = new TimerQueue();
  private hostTimer: ReturnType<typeof setTimeout> | undefined;
  private hostTimerDue = Infinity;
  private draining = false;

  constructor(settings: ClockSettings) {
    this.mode = settings.mode;
    this.speed = settings.speed;
    this.anchor = settings.startTime;
    this.wallAnchor = hostNow();
  }

  now(): number {
    if (this.firingAt !== undefined) return this.firingAt;
    if (this.mode === 'manual') return this.anchor;
    return this.anchor + Math.floor((hostNow() - this.wallAnchor) * this.speed);
  }

  state(): ClockState {
    return { now: this.now(), mode: this.mode, speed: this.speed, pendingTasks: this.queue.size };
  }

  /** Runs `task` when the clock reaches `due` (at once on the next drain if already past). */
  at(due: number, task: () => void): Timer {
    const timer = this.queue.push(due, task);
    this.armHostTimer();
    return timer;
  }

  cancel(timer: Timer): void {
    this.queue.cancel(timer);
  }

  /** Moves the clock forward by `ms`, firing every task due on the way in time order. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new ApiError('CLOCK_BACKWARDS', `Cannot advance the clock by ${ms} ms; give a duration of 0 or more.`);
    this.moveTo(this.now() + ms);
  }

  /** Sets the clock to `instant`, firing everything due up to it; refuses to go backwards. */
  set(instant: number): void {
    const now = this.now();
    if (instant < now) {
      throw new ApiError(
        'CLOCK_BACKWARDS',
        `Cannot set the clock to ${new Date(instant).toISOString()}: it is before the current time ${new Date(now).toISOString()}.`,
      );
    }
    this.moveTo(instant);
  }

  configure(settings: Partial<Pick<ClockSettings, 'mode' | 'speed'>>): void {
    const now = this.now();
    if (settings.mode !== undefined) this.mode = settings.mode;
    if (settings.speed !== undefined) this.speed = settings.speed;
    this.rebase(now);
    this.armHostTimer();
  }

  /** Drops every queued task and restarts from `startTime` (used by reset). */
  restart(startTime: number): void {
    this.queue.clear();
    this.rebase(startTime);
    this.armHostTimer();
  }

  /** Stops the host timer so the process can exit. */
  dispose(): void {
    this.queue.clear();
    this.disarmHostTimer();
  }

  private rebase(now: number): void {
    this.anchor = now;
    this.wallAnchor = hostNow();
  }

  private moveTo(target: number): void {
    this.drain(target);
    this.rebase(target);
    this.armHostTimer();
  }

  private drain(until: number): void {
    if (this.draining) return; // a task that moves the clock only queues work for the running drain
    this.draining = true;
    try {
      for (let timer = this.queue.popDue(until); timer; timer = this.queue.popDue(until)) {
        this.firingAt = timer.due;
        try {
          timer.task();
        } finally {
          this.firingAt = undefined;
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private armHostTimer(): void {
    if (this.mode !== 'realtime') return this.disarmHostTimer();
    const next = this.queue.peek();
    if (!next) return this.disarmHostTimer();
    if (this.hostTimer && next.due >= this.hostTimerDue) return;
    this.disarmHostTimer();
    const delay = Math.max(0, Math.ceil((next.due - this.now()) / this.speed));
    this.hostTimerDue = next.due;
    this.hostTimer = setTimeout(
      () => {
        this.hostTimer = undefined;
        this.hostTimerDue = Infinity;
        this.drain(this.now());
        this.armHostTimer();
      },
      Math.min(delay, 2_147_483_647),
    );
    this.hostTimer.unref();
  }

  private disarmHostTimer(): void {
    if (this.hostTimer) clearTimeout(this.hostTimer);
    this.hostTimer = undefined;
    this.hostTimerDue = Infinity;
  }
}
