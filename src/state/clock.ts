/** The emulator's virtual clock: realtime or manual, with an ordered queue of due tasks. */

// Imported from node:timers so a host test runner that fakes the global timers cannot stall the clock.
import { clearTimeout, setTimeout } from 'node:timers';
import { z } from 'zod';
import { type ClockMode, clockModes, maxTime } from '../domain/clockRange.js';
import { ApiError } from '../domain/errors.js';
import { formatInstant } from '../domain/time.js';
import { type Timer, TimerQueue } from './timerQueue.js';

/** Wall time as the host knows it; captured once so fake timers installed later do not change it. */
const hostNow = Date.now.bind(Date);

export interface ClockSettings {
  mode: ClockMode;
  /** How many virtual milliseconds pass per real millisecond in realtime mode. */
  speed: number;
  /** The instant the clock starts at (epoch ms). */
  startTime: number;
  /** A test clock's id (`clock_…`) and optional name; the main clock has neither. */
  id?: string;
  name?: string | null;
}

/** How a clock task can go wrong: it threw (failed) or was not carried out (skipped). */
export const incidentOutcomes = ['failed', 'skipped'] as const;

/** A task that threw (failed) or was not carried out (skipped), kept so the control API can show it. */
export const clockIncidentSchema = z.strictObject({
  /** Virtual time the task was due (epoch ms). */
  due: z.int(),
  /** What the task was for, e.g. `scenario timeline event at 5m`. */
  task: z.string(),
  outcome: z.enum(incidentOutcomes),
  reason: z.string(),
});
export type ClockIncident = z.output<typeof clockIncidentSchema>;

/** What a clock shows of itself; the control API's clock views are built from its fields. */
export const clockStateSchema = z.strictObject({
  now: z.int(),
  mode: z.enum(clockModes),
  speed: z.number(),
  pendingTasks: z.int(),
  /** The most recent failed or skipped tasks, oldest first (at most `incidentLimit`). */
  incidents: z.array(clockIncidentSchema),
});
export type ClockState = z.output<typeof clockStateSchema>;

/** One line for the log: `clock task "…" due at … failed: …; the clock goes on`. */
export function describeIncident(incident: ClockIncident, offsetMinutes: number): string {
  return `clock task "${incident.task}" due at ${formatInstant(incident.due, offsetMinutes)} ${incident.outcome}: ${incident.reason}; the clock goes on.`;
}

/** Why a run stopped short of idle: its time limit, the task cap, or a restart of the clock under it. */
export const runStops = ['limit', 'task-cap', 'restart'] as const;
export type RunStop = (typeof runStops)[number];

/** How a `runUntilIdle` or `next` ended. */
export const clockRunSchema = z.strictObject({
  /** Tasks fired. */
  fired: z.int(),
  /** True when no task is left queued. */
  idle: z.boolean(),
  /**
   * Why `runUntilIdle` ended with tasks still queued: the virtual limit, the cap on tasks fired, or a
   * restart (reset or snapshot import) while it waited between rounds, whose fresh state it leaves alone.
   */
  stoppedAt: z.enum(runStops).optional(),
});
export type ClockRun = z.output<typeof clockRunSchema>;

/** How many incidents the clock remembers; older ones are dropped. */
export const incidentLimit = 100;
/**
 * Most tasks one move of the clock fires. A task that re-arms itself at the same instant would
 * otherwise hold the clock forever; hitting the cap is reported as an incident and the move ends.
 */
export const taskCap = 1_000_000;

export class Clock {
  /** Null for the main clock; a test clock's id otherwise. */
  readonly id: string | null;
  readonly name: string | null;
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
  private readonly incidents: ClockIncident[] = [];
  /** Counts restarts, so a run that awaits between rounds notices one and stops. */
  private restarts = 0;

  /** `onIncident` hears every failed or skipped task (the emulator logs it and emits an event). */
  constructor(
    settings: ClockSettings,
    private readonly onIncident: (incident: ClockIncident) => void = () => undefined,
  ) {
    this.id = settings.id ?? null;
    this.name = settings.name ?? null;
    this.mode = settings.mode;
    this.speed = settings.speed;
    this.anchor = settings.startTime;
    this.wallAnchor = hostNow();
  }

  now(): number {
    if (this.firingAt !== undefined) return this.firingAt;
    if (this.mode === 'manual') return this.anchor;
    // A fast realtime clock stops at the end of the range rather than run past what renders.
    return Math.min(maxTime, this.anchor + Math.floor((hostNow() - this.wallAnchor) * this.speed));
  }

  state(): ClockState {
    return {
      now: this.now(),
      mode: this.mode,
      speed: this.speed,
      pendingTasks: this.queue.size,
      incidents: [...this.incidents],
    };
  }

  /** Runs `task` when the clock reaches `due` (at once on the next drain if already past); `label` names it in incident reports. */
  at(due: number, task: () => void, label = 'task'): Timer {
    const timer = this.queue.push(due, task, label);
    this.armHostTimer();
    return timer;
  }

  cancel(timer: Timer): void {
    this.queue.cancel(timer);
  }

  /** Moves the clock forward by `ms`, firing every task due on the way in time order. */
  advance(ms: number): void {
    const now = this.now();
    this.checkAdvance(ms, now);
    this.moveTo(now + ms);
  }

  /** Throws what `advance(ms)` from `from` would throw, changing nothing (a combined command checks every part first). */
  checkAdvance(ms: number, from: number = this.now()): void {
    if (!(ms >= 0))
      throw new ApiError('CLOCK_BACKWARDS', `Cannot advance the clock by ${ms} ms; give a duration of 0 or more.`);
    if (ms > maxTime - from) {
      throw new ApiError(
        'CONTROL_INVALID_REQUEST',
        `Cannot advance the clock by ${ms} ms: it would pass ${new Date(maxTime).toISOString()}, the latest time the clock can show (at most ${maxTime - from} ms from now).`,
      );
    }
  }

  /**
   * Jumps to the next queued task's due time (or fires it now when overdue), firing everything due then; 0 when nothing
   * is queued. A task due after the latest time the clock can show stops the clock there unfired, as runUntilIdle does.
   */
  next(): number {
    const next = this.queue.peek();
    if (!next) return 0;
    const target = Math.max(this.now(), Math.min(next.due, maxTime));
    const fired = this.drain(target);
    this.rebase(target);
    this.armHostTimer();
    return fired;
  }

  /**
   * Fires queued tasks in time order until none is left or the next is after `now + limitMs`;
   * `between` runs after each round (the emulator settles webhook tries there, which may queue
   * more tasks). Idle leaves the clock at the last task fired; a reached limit leaves it at the limit.
   * Always ends: the limit bounds virtual time and `taskCap` bounds the tasks fired.
   */
  async runUntilIdle(limitMs: number, between: () => Promise<void> = async () => undefined): Promise<ClockRun> {
    const deadline = Math.min(maxTime, this.now() + Math.max(0, limitMs));
    const restarts = this.restarts;
    let fired = 0;
    for (;;) {
      if (this.restarts !== restarts) return { fired, idle: false, stoppedAt: 'restart' };
      const next = this.queue.peek();
      if (!next) return { fired, idle: true };
      if (next.due > deadline) {
        this.moveTo(Math.max(this.now(), deadline));
        return { fired, idle: false, stoppedAt: 'limit' };
      }
      if (fired >= taskCap) return { fired, idle: false, stoppedAt: 'task-cap' };
      const target = Math.max(this.now(), next.due);
      fired += this.drain(target, taskCap - fired);
      this.rebase(target);
      this.armHostTimer();
      await between();
    }
  }

  /** Sets the clock to `instant`, firing everything due up to it; refuses to go backwards. */
  set(instant: number): void {
    this.checkSet(instant);
    this.moveTo(instant);
  }

  /** Throws what `set(instant)` would throw when the clock shows `now`, changing nothing. */
  checkSet(instant: number, now: number = this.now()): void {
    if (instant < now) {
      throw new ApiError(
        'CLOCK_BACKWARDS',
        `Cannot set the clock to ${new Date(instant).toISOString()}: it is before the current time ${new Date(now).toISOString()}.`,
      );
    }
  }

  configure(settings: Partial<Pick<ClockSettings, 'mode' | 'speed'>>): void {
    const now = this.now();
    if (settings.mode !== undefined) this.mode = settings.mode;
    if (settings.speed !== undefined) this.speed = settings.speed;
    this.rebase(now);
    this.armHostTimer();
  }

  /** Records a task that was not carried out, with why (e.g. its account was deleted). */
  skipped(due: number, task: string, reason: string): void {
    this.record({ due, task, outcome: 'skipped', reason });
  }

  /** Drops every queued task and remembered incident and restarts from `startTime` (used by reset). */
  restart(startTime: number): void {
    this.restarts += 1;
    this.queue.clear();
    this.incidents.length = 0;
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

  /** Fires every task due by `until` (at most `cap`), each inside an error boundary; returns how many fired. */
  private drain(until: number, cap = taskCap): number {
    if (this.draining) return 0; // a task that moves the clock only queues work for the running drain
    this.draining = true;
    let fired = 0;
    try {
      for (let timer = this.queue.popDue(until); timer; timer = fired < cap ? this.queue.popDue(until) : undefined) {
        fired += 1;
        this.firingAt = timer.due;
        try {
          timer.task();
        } catch (error) {
          // One broken task must not stop the clock, later tasks or the process.
          this.record({
            due: timer.due,
            task: timer.label,
            outcome: 'failed',
            reason: error instanceof Error ? error.message : String(error),
          });
        } finally {
          this.firingAt = undefined;
        }
      }
      const left = this.queue.peek();
      if (left && left.due <= until) {
        this.record({
          due: this.now(),
          task: 'clock',
          outcome: 'skipped',
          reason: `stopped after firing ${cap} tasks in one move; the rest fire on the next move`,
        });
      }
    } finally {
      this.draining = false;
    }
    return fired;
  }

  private record(incident: ClockIncident): void {
    this.incidents.push(incident);
    if (this.incidents.length > incidentLimit) this.incidents.shift();
    this.onIncident(incident);
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
