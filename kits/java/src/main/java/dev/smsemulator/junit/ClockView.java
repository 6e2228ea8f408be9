package dev.smsemulator.junit;

import java.time.Instant;
import java.util.List;

/**
 * A clock as the control API shows it: the main clock ({@code id}, {@code name} and {@code accounts} empty) or a test
 * clock. {@code now} is the instant; {@code time} the same at the API's offset; {@code run} is set after a
 * {@code runUntilIdle} or {@code next} move.
 */
public record ClockView(
    String id,
    String name,
    Instant now,
    String time,
    String mode,
    double speed,
    int pendingTasks,
    List<Incident> incidents,
    ClockRun run,
    List<String> accounts) {}
