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

/**
 * What a move waits for at each due instant it stops at, the clock standing there: the emulator gives the webhook tries
 * of that instant's tasks (`WebhookDispatcher.settling`). Undefined when nothing is under way, so a walk through instants
 * that make no tries never yields.
 */
export type Settle = () => Promise<void> | undefined;
const nothingToSettle: Settle = () => undefined;

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
  /** Counts restarts, so a move that waits at an instant notices one and stops. */
  private restarts = 0;
  /** Settles when the move under way (and every one queued behind it) has ended; undefined when none is. */
  private moving: Promise<void> | undefined;

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

  /**
   * Runs `move` at once when no other move of this clock is under way, else once the moves before it have ended: a move
   * waits at each due instant for its webhook tries, and a second move meanwhile would carry the clock from under them
   * (two `advance('1h')` still make two hours, as when a move never waited).
   */
  exclusive<T>(move: () => Promise<T>): Promise<T> {
    const before = this.moving;
    const run = before === undefined ? move() : before.then(move);
    const ended = run.then(
      () => undefined,
      () => undefined,
    );
    this.moving = ended;
    void ended.then(() => {
      if (this.moving === ended) this.moving = undefined;
    });
    return run;
  }

  /** Resolves once no move of this clock is under way or queued (at once when none is). */
  async movesEnded(): Promise<void> {
    await this.moving;
  }

  /**
   * Moves the clock forward by `ms`, one due instant at a time (see `step`), and leaves it there. A move that cannot be
   * made is refused at once, before anything changes.
   */
  advance(ms: number, settle: Settle = nothingToSettle): Promise<void> {
    const now = this.now();
    this.checkAdvance(ms, now);
    return this.moveTo(now + ms, settle);
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
  async next(settle: Settle = nothingToSettle): Promise<number> {
    const next = this.queue.peek();
    if (!next) return 0;
    const target = Math.max(this.now(), Math.min(next.due, maxTime));
    const { fired, stoppedAt } = await this.step(target, settle);
    if (stoppedAt !== 'restart') this.standAt(target);
    return fired;
  }

  /**
   * Fires queued tasks one due instant at a time until none is left or the next is after `now + limitMs`. Idle leaves
   * the clock at the last instant fired; a reached limit leaves it at the limit. Always ends: the limit bounds virtual
   * time and `taskCap` bounds the tasks fired.
   */
  async runUntilIdle(limitMs: number, settle: Settle = nothingToSettle): Promise<ClockRun> {
    const deadline = Math.min(maxTime, this.now() + Math.max(0, limitMs));
    const { fired, stoppedAt } = await this.step(deadline, settle);
    if (stoppedAt !== undefined) return { fired, idle: false, stoppedAt };
    if (this.queue.peek() === undefined) return { fired, idle: true };
    this.standAt(deadline);
    return { fired, idle: false, stoppedAt: 'limit' };
  }

  /** Sets the clock to `instant`, one due instant at a time as `advance` goes; refuses to go backwards. */
  set(instant: number, settle: Settle = nothingToSettle): Promise<void> {
    this.checkSet(instant);
    return this.moveTo(instant, settle);
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

  /** Moves to `target` through every due instant on the way, and stands there (unless a restart came meanwhile). */
  private async moveTo(target: number, settle: Settle): Promise<void> {
    const { stoppedAt } = await this.step(target, settle);
    if (stoppedAt !== 'restart') this.standAt(target);
  }

  /** Leaves the clock at `instant` (or where a realtime clock has run to since) and arms the host timer for what is next. */
  private standAt(instant: number): void {
    this.rebase(Math.max(this.now(), instant));
    this.armHostTimer();
  }

  /**
   * The walk every move makes, up to `until`: it stops at each instant a task is due, fires everything due then (tasks
   * those queue for the same instant included: a due instant's tries go out together), and, the clock standing at that
   * instant, waits for what `settle` gives (the webhook tries those tasks made, their re-attempts included) before it
   * moves on. So a receiver that reads the clock while a notification is tried sees the time it became due, and
   * notifications arrive in the order they became due. It stops early at the task cap, or when a restart (reset,
   * snapshot import) came while it waited, whose fresh state it leaves alone.
   */
  private async step(until: number, settle: Settle): Promise<{ fired: number; stoppedAt?: Exclude<RunStop, 'limit'> }> {
    // A task that moves the clock only moves it: what falls due fires in the running drain or on the next move.
    if (this.draining) return { fired: 0 };
    const restarts = this.restarts;
    let fired = 0;
    for (let next = this.queue.peek(); next !== undefined && next.due <= until; next = this.queue.peek()) {
      const instant = Math.max(this.now(), next.due);
      fired += this.drain(instant, taskCap - fired);
      this.rebase(instant);
      if (this.capped(fired, until)) return { fired, stoppedAt: 'task-cap' };
      const settling = settle();
      if (settling !== undefined) await settling;
      if (this.restarts !== restarts) return { fired, stoppedAt: 'restart' };
    }
    return { fired };
  }

  /** Whether `fired` reached the task cap with tasks due by `until` still queued: recorded, they fire on the next move. */
  private capped(fired: number, until: number): boolean {
    const left = this.queue.peek();
    if (fired < taskCap || left === undefined || left.due > until) return false;
    this.record({
      due: this.now(),
      task: 'clock',
      outcome: 'skipped',
      reason: `stopped after firing ${taskCap} tasks in one move; the rest fire on the next move`,
    });
    return true;
  }

  /** Fires every task due by `until` (at most `cap`), each inside an error boundary; returns how many fired. */
  private drain(until: number, cap = taskCap): number {
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
        const now = this.now();
        this.capped(this.drain(now), now);
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
