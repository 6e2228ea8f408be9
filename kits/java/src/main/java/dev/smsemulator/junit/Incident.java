package dev.smsemulator.junit;

/** A task of a clock that failed or was skipped: when, which, how, and why. */
public record Incident(String time, String task, String outcome, String reason) {}
