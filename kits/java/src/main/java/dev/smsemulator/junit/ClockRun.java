package dev.smsemulator.junit;

/** What a {@code runUntilIdle} or {@code next} move did: tasks fired, whether the clock is idle, why it stopped. */
public record ClockRun(int fired, boolean idle, String stoppedAt) {}
