package dev.smsemulator.junit;

/** The limits the emulator applies, as started: recipients per request (and why), message length, body size. */
public record Limits(long batchLimit, String batchLimitNote, long messageLimit, long maxBodySize) {}
