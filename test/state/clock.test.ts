import { afterEach, expect, test, vi } from 'vitest';
import { ApiError } from '../../src/index.js';
import { maxTime } from '../../src/domain/clockRange.js';
import { Clock, incidentLimit, taskCap } from '../../src/state/clock.js';

const start = Date.parse('2026-11-21T10:00:00Z');
const manual = () => new Clock({ mode: 'manual', speed: 1, startTime: start });

afterEach(() => {
  vi.useRealTimers();
});

test('advancing fires due tasks in time order, each seeing the clock at its own due time', async () => {
  const clock = manual();
  const seen: [string, number][] = [];
  clock.at(start + 3000, () => seen.push(['c', clock.now()]));
  clock.at(start + 1000, () => seen.push(['a', clock.now()]));
  clock.at(start + 2000, () => seen.push(['b', clock.now()]));
  clock.at(start + 2000, () => seen.push(['b2', clock.now()]));
  clock.at(start + 9000, () => seen.push(['late', clock.now()]));
  await clock.advance(5000);
  expect(seen).toEqual([
    ['a', start + 1000],
    ['b', start + 2000],
    ['b2', start + 2000],
    ['c', start + 3000],
  ]);
  expect(clock.now()).toBe(start + 5000);
});

test('tasks scheduled by a firing task inside the jump fire in the same advance', async () => {
  const clock = manual();
  const seen: number[] = [];
  const chain = (n: number) =>
    clock.at(clock.now() + 1000, () => {
      seen.push(clock.now() - start);
      if (n > 1) chain(n - 1);
    });
  chain(5);
  await clock.advance(3500);
  expect(seen).toEqual([1000, 2000, 3000]);
  await clock.advance(10_000);
  expect(seen).toEqual([1000, 2000, 3000, 4000, 5000]);
});

test('a 7-day jump fires 100,000 due events in order', async () => {
  const clock = manual();
  const week = 7 * 86_400_000;
  let last = -1;
  let fired = 0;
  let outOfOrder = 0;
  for (let i = 0; i < 100_000; i++) {
    const due = start + Math.floor(((i * 7919) % 100_000) * (week / 100_000));
    clock.at(due, () => {
      if (clock.now() < last) outOfOrder += 1;
      last = clock.now();
      fired += 1;
    });
  }
  await clock.advance(week);
  expect(fired).toBe(100_000);
  expect(outOfOrder).toBe(0);
  expect(clock.state().pendingTasks).toBe(0);
});

test('cancelled tasks do not fire', async () => {
  const clock = manual();
  const fired: string[] = [];
  const timer = clock.at(start + 10, () => fired.push('cancelled'));
  clock.at(start + 20, () => fired.push('kept'));
  clock.cancel(timer);
  await clock.advance(100);
  expect(fired).toEqual(['kept']);
});

test('cancelling a task that already fired or was dropped by a restart leaves the pending count right', async () => {
  const clock = manual();
  const fired = clock.at(start + 10, () => undefined);
  const dropped = clock.at(start + 1_000_000, () => undefined);
  await clock.advance(100);
  clock.cancel(fired);
  expect(clock.state().pendingTasks).toBe(1);
  clock.restart(start);
  const kept = clock.at(start + 10, () => undefined);
  clock.cancel(dropped);
  clock.cancel(dropped);
  expect(clock.state().pendingTasks).toBe(1);
  clock.cancel(kept);
  expect(clock.state().pendingTasks).toBe(0);
});

test('setting the clock backwards is refused with CLOCK_BACKWARDS and changes nothing', async () => {
  const clock = manual();
  await clock.advance(60_000);
  expect(() => clock.set(start)).toThrow(ApiError);
  expect(() => clock.advance(-1)).toThrow(/Cannot advance/);
  expect(clock.now()).toBe(start + 60_000);
});

test('realtime mode follows wall time at the given speed', async () => {
  const clock = new Clock({ mode: 'realtime', speed: 1000, startTime: start });
  const fired = new Promise<number>((resolve) => clock.at(start + 50_000, () => resolve(clock.now())));
  expect(await fired).toBe(start + 50_000);
  expect(clock.now()).toBeGreaterThanOrEqual(start + 50_000);
  clock.dispose();
});

test('the realtime clock keeps running when the host test runner fakes timers', async () => {
  const clock = new Clock({ mode: 'realtime', speed: 100, startTime: start });
  vi.useFakeTimers();
  const fired = new Promise<string>((resolve) => clock.at(start + 2_000, () => resolve('fired')));
  expect(await fired).toBe('fired');
  clock.dispose();
});

test('switching to manual freezes the clock; back to realtime resumes from there', async () => {
  const clock = new Clock({ mode: 'realtime', speed: 1, startTime: start });
  clock.configure({ mode: 'manual' });
  const frozen = clock.now();
  await clock.advance(1000);
  expect(clock.now()).toBe(frozen + 1000);
  clock.configure({ mode: 'realtime' });
  expect(clock.now()).toBeGreaterThanOrEqual(frozen + 1000);
  clock.dispose();
});

test('a task that throws is recorded as a failed incident and the clock goes on with later tasks', async () => {
  const heard: string[] = [];
  const clock = new Clock({ mode: 'manual', speed: 1, startTime: start }, (incident) => heard.push(incident.reason));
  const fired: string[] = [];
  clock.at(
    start + 1000,
    () => {
      throw new Error('boom');
    },
    'broken task',
  );
  clock.at(start + 2000, () => fired.push('later'));
  await clock.advance(5000);
  expect(fired).toEqual(['later']);
  expect(clock.now()).toBe(start + 5000);
  expect(heard).toEqual(['boom']);
  expect(clock.state().incidents).toEqual([
    { due: start + 1000, task: 'broken task', outcome: 'failed', reason: 'boom' },
  ]);
  await clock.advance(1000);
  expect(clock.now()).toBe(start + 6000);
});

test('incidents are bounded to the latest ones and cleared by a restart', () => {
  const clock = manual();
  for (let i = 0; i < incidentLimit + 5; i++) clock.skipped(start, `task ${i}`, 'why');
  expect(clock.state().incidents).toHaveLength(incidentLimit);
  expect(clock.state().incidents[0]?.task).toBe('task 5');
  clock.restart(start);
  expect(clock.state().incidents).toEqual([]);
});

test('runUntilIdle fires every queued task in order and stops idle at the last one', async () => {
  const clock = manual();
  const seen: number[] = [];
  clock.at(start + 86_400_000, () => seen.push(clock.now() - start));
  clock.at(start + 1000, () => clock.at(clock.now() + 5000, () => seen.push(clock.now() - start)));
  expect(await clock.runUntilIdle(30 * 86_400_000)).toEqual({ fired: 3, idle: true });
  expect(seen).toEqual([6000, 86_400_000]);
  expect(clock.now()).toBe(start + 86_400_000);
});

test('runUntilIdle stops at the virtual limit when a task re-arms itself forever', async () => {
  const clock = manual();
  const rearm = () => clock.at(clock.now() + 60_000, rearm);
  rearm();
  const run = await clock.runUntilIdle(3_600_000);
  expect(run).toEqual({ fired: 60, idle: false, stoppedAt: 'limit' });
  expect(clock.now()).toBe(start + 3_600_000);
});

test('runUntilIdle stops at the task cap when a task re-arms itself at the same instant', async () => {
  const clock = manual();
  const rearm = () => clock.at(clock.now(), rearm);
  rearm();
  const run = await clock.runUntilIdle(1000);
  expect(run).toMatchObject({ fired: taskCap, idle: false });
  expect(clock.state().incidents[0]?.reason).toContain(`stopped after firing ${taskCap} tasks`);
});

test('runUntilIdle waits for work queued between rounds by its helper', async () => {
  const clock = manual();
  const seen: number[] = [];
  let queued = false;
  clock.at(start + 1000, () => seen.push(1));
  const run = await clock.runUntilIdle(86_400_000, async () => {
    if (queued) return;
    queued = true;
    clock.at(clock.now() + 1000, () => seen.push(2));
  });
  expect(run).toEqual({ fired: 2, idle: true });
  expect(seen).toEqual([1, 2]);
});

test('a restart (reset, snapshot import) while runUntilIdle waits between rounds ends the run: it fires nothing of the fresh state', async () => {
  const clock = manual();
  const seen: string[] = [];
  clock.at(start + 1000, () => seen.push('before reset'));
  const run = await clock.runUntilIdle(86_400_000, async () => {
    if (seen.length !== 1) return;
    clock.restart(start);
    clock.at(start + 600_000, () => seen.push('armed by the fresh start'));
  });
  expect(run).toEqual({ fired: 1, idle: false, stoppedAt: 'restart' });
  expect(seen).toEqual(['before reset']);
  expect(clock.state()).toMatchObject({ now: start, pendingTasks: 1 });
});

test('next jumps to the next queued task and fires what is due then, and nothing else', async () => {
  const clock = manual();
  const seen: string[] = [];
  clock.at(start + 5000, () => seen.push('a'));
  clock.at(start + 5000, () => seen.push('b'));
  clock.at(start + 9000, () => seen.push('c'));
  expect(await clock.next()).toBe(2);
  expect(seen).toEqual(['a', 'b']);
  expect(clock.now()).toBe(start + 5000);
  expect(await clock.next()).toBe(1);
  expect(await clock.next()).toBe(0);
  expect(clock.now()).toBe(start + 9000);
});

test('advancing past the end of the clock range is refused and changes nothing', async () => {
  const clock = manual();
  expect(() => clock.advance(maxTime)).toThrow(/latest time the clock can show/);
  expect(clock.now()).toBe(start);
  await clock.advance(maxTime - start);
  expect(clock.now()).toBe(maxTime);
});

test('next stops at the end of the clock range when the next task is due after it, firing nothing', async () => {
  const clock = new Clock({ mode: 'manual', speed: 1, startTime: maxTime - 3_600_000 });
  const fired: string[] = [];
  clock.at(maxTime + 3_600_000, () => fired.push('beyond'));
  expect(await clock.next()).toBe(0);
  expect(clock.now()).toBe(maxTime);
  expect(await clock.next()).toBe(0);
  expect(clock.now()).toBe(maxTime);
  expect(fired).toEqual([]);
});

test('a move stops at each due instant and waits there for what settle gives, the clock standing at that instant', async () => {
  const clock = manual();
  const seen: number[] = [];
  let release: (() => void) | undefined;
  clock.at(start + 1000, () => undefined);
  clock.at(start + 5000, () => undefined);
  const moving = clock.advance(3_600_000, () => {
    seen.push(clock.now() - start);
    return new Promise<void>((resolve) => (release = resolve));
  });
  await Promise.resolve();
  expect(clock.now()).toBe(start + 1000);
  release?.();
  await new Promise((resolve) => setImmediate(resolve));
  expect(clock.now()).toBe(start + 5000);
  release?.();
  await moving;
  expect(seen).toEqual([1000, 5000]);
  expect(clock.now()).toBe(start + 3_600_000);
});

test('moves of one clock run one after another: a second advance starts where the first one ended', async () => {
  const clock = manual();
  const seen: number[] = [];
  clock.at(start + 1000, () => seen.push(clock.now() - start));
  let release: (() => void) | undefined;
  const first = clock.exclusive(() =>
    clock.advance(3_600_000, () =>
      seen.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : undefined,
    ),
  );
  const second = clock.exclusive(() => clock.advance(3_600_000));
  await Promise.resolve();
  release?.();
  await Promise.all([first, second]);
  expect(seen).toEqual([1000]);
  expect(clock.now()).toBe(start + 2 * 3_600_000);
});

test('a restart while an advance waits at an instant ends the move: the fresh state keeps its time and tasks', async () => {
  const clock = manual();
  const seen: string[] = [];
  clock.at(start + 1000, () => seen.push('before reset'));
  await clock.advance(86_400_000, () => {
    if (seen.length !== 1) return undefined;
    clock.restart(start);
    clock.at(start + 600_000, () => seen.push('armed by the fresh start'));
    return Promise.resolve();
  });
  expect(seen).toEqual(['before reset']);
  expect(clock.state()).toMatchObject({ now: start, pendingTasks: 1 });
});
