package dev.smsemulator.junit;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** A world's own clock: frozen until moved, and only the world's account lives on it. */
public final class WorldClock {
  /** The test clock's id. */
  public final String id;
  private final Control control;
  private long now;

  WorldClock(Control control, String id, long now) {
    this.control = control;
    this.id = id;
    this.now = now;
  }

  private ClockView move(Map<String, Object> command) {
    ClockView view = control.clocksMove(id, command);
    track(view.now().toEpochMilli());
    return view;
  }

  synchronized void track(long moved) {
    now = Math.max(now, moved);
  }

  /** Moves the clock forward ("15m", "1h30m"), firing what falls due on the way, in order. */
  public ClockView advance(String duration) {
    return move(Map.of("advance", duration));
  }

  /** Moves the clock forward by a Duration. */
  public ClockView advance(Duration duration) {
    return move(Map.of("advance", duration.toMillis()));
  }

  /** Moves the clock to an instant; never backwards. */
  public ClockView set(Instant instant) {
    return move(Map.of("set", instant.toString()));
  }

  /** Moves the clock to an instant given as ISO 8601 text ({@code 2026-11-23T09:00:00+02:00}). */
  public ClockView set(String instant) {
    return move(Map.of("set", instant));
  }

  /** Runs until none of the clock's tasks is queued; the answer's {@code run()} says how many fired. */
  public ClockView runUntilIdle() {
    return move(Map.of("runUntilIdle", true));
  }

  /**
   * Runs until none of the clock's tasks is queued or {@code limit} of the clock's time passed, whichever is first
   * (a Duration, or text such as "30d"): a task that always queues another cannot run it forever. The answer's
   * {@code run().stoppedAt()} says {@code limit} when the limit stopped it.
   */
  public ClockView runUntilIdle(Object limit) {
    Map<String, Object> command = new LinkedHashMap<>();
    command.put("runUntilIdle", true);
    command.put("limit", Control.duration(limit));
    return move(command);
  }

  /** Jumps to the clock's next queued event and fires what is due then. */
  public ClockView next() {
    return move(Map.of("next", true));
  }

  /** The clock's time, at once: nothing but the test moves its clock, so it is the time its last move answered. */
  public synchronized Instant now() {
    return Instant.ofEpochMilli(now);
  }
}
