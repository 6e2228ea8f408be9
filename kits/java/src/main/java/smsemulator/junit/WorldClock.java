package smsemulator.junit;

import java.time.Instant;
import java.util.Map;

/** A test's own clock: frozen until moved, and only the test's account lives on it. */
public final class WorldClock {
  public final String id;
  private final Control control;
  private long now;

  WorldClock(Control control, String id, long now) {
    this.control = control;
    this.id = id;
    this.now = now;
  }

  private void move(Map<String, Object> command) {
    Map<?, ?> view = (Map<?, ?>) control.call("POST", "/clocks/" + Control.quote(id), command);
    track(((Number) view.get("now")).longValue());
  }

  synchronized void track(long moved) {
    now = Math.max(now, moved);
  }

  /** Moves the clock forward ("15m", "1h30m"), firing what falls due on the way. */
  public void advance(String duration) {
    move(Map.of("advance", duration));
  }

  /** Moves the clock to an instant; never backwards. */
  public void set(Instant instant) {
    move(Map.of("set", instant.toString()));
  }

  public void runUntilIdle() {
    move(Map.of("runUntilIdle", true));
  }

  /** Jumps to the clock's next queued event and fires what is due then. */
  public void next() {
    move(Map.of("next", true));
  }

  /** The clock's time, at once: nothing but the test moves its clock, so it is the time its last move answered. */
  public synchronized Instant now() {
    return Instant.ofEpochMilli(now);
  }
}
