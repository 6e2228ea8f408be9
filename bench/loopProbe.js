// Preloaded into a measured process (`node --import ./bench/loopProbe.js …`): times its event loop's longest block.
// A 10 ms interval notes how late each tick comes (a tick late by 90 ms means the loop was held about 100 ms), and
// monitorEventLoopDelay samples the same at 10 ms. On SIGUSR2 it writes the figures since the last SIGUSR2 as one JSON
// line to the file LOOP_PROBE_OUT names, then starts again: the bench signals once before the work it measures and
// once after it.
import { writeFileSync } from 'node:fs';
import { Server } from 'node:http';
import { setInterval } from 'node:timers';
import { monitorEventLoopDelay, PerformanceObserver, constants } from 'node:perf_hooks';

const out = process.env.LOOP_PROBE_OUT;
if (out) {
  const periodMs = 10;
  const histogram = monitorEventLoopDelay({ resolution: periodMs });
  histogram.enable();
  let last = performance.now();
  let longestTickMs = 0;
  let ticks = 0;
  /** Ticks more than 50 ms apart: [when (ms since the process started, as --trace-gc counts), how long, CPU ms used]. */
  let slow = [];
  let cpu = process.cpuUsage();
  setInterval(() => {
    const now = performance.now();
    // The CPU time this process used in the gap (all threads: the main one, and the collector's helpers) tells work
    // from waiting: a long gap with little CPU time is the machine running something else.
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    longestTickMs = Math.max(longestTickMs, now - last);
    if (now - last > 50)
      slow.push([Math.round(last), Math.round(now - last), Math.round((used.user + used.system) / 1000)]);
    last = now;
    ticks += 1;
  }, periodMs).unref();
  // Health answers as the server sees them: from the connection's accept to the answer's last byte handed to the socket;
  // and, when the client says when it asked (`?asked=` in ms since the epoch, the same clock on one machine), how long
  // the connection waited to be accepted.
  let longestHealthMs = 0;
  let longestAcceptWaitMs = 0;
  // Collections the loop waited on longer than 20 ms: [when, how long, kind] (kind: 'minor', 'major', …).
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  let collections = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.duration > 20)
        collections.push([
          Math.round(entry.startTime),
          Math.round(entry.duration),
          kinds[entry.detail.kind] ?? entry.detail.kind,
          entry.detail.flags,
        ]);
  }).observe({ entryTypes: ['gc'] });
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (event, ...args) {
    if (event === 'connection') args[0].acceptedAt = performance.now();
    if (event === 'request' && args[0].url.startsWith('/_emulator/health')) {
      const acceptedAt = args[0].socket.acceptedAt ?? performance.now();
      const asked = Number(new URL(args[0].url, 'http://probe').searchParams.get('asked'));
      if (asked > 0) longestAcceptWaitMs = Math.max(longestAcceptWaitMs, performance.timeOrigin + acceptedAt - asked);
      args[1].once('finish', () => (longestHealthMs = Math.max(longestHealthMs, performance.now() - acceptedAt)));
    }
    return emit.call(this, event, ...args);
  };
  process.on('SIGUSR2', () => {
    const figures = {
      // The longest time between two 10 ms ticks: the loop was held that long, less up to one period.
      longestTickMs: Math.max(longestTickMs, performance.now() - last),
      ticks,
      delayMaxMs: histogram.max / 1e6,
      delayP99Ms: histogram.percentile(99) / 1e6,
      rss: process.memoryUsage.rss(),
      longestHealthMs,
      longestAcceptWaitMs,
      slow,
      collections,
    };
    writeFileSync(out, `${JSON.stringify(figures)}\n`);
    histogram.reset();
    longestTickMs = 0;
    ticks = 0;
    slow = [];
    collections = [];
    longestHealthMs = 0;
    longestAcceptWaitMs = 0;
    last = performance.now();
  });
}
