package dev.smsemulator.junit;

/**
 * The limits the emulator applies, as started ({@code GET /_emulator/limits}): most recipients per request and why,
 * the longest text in characters, the largest request body in bytes.
 */
public record Limits(int batchLimit, String batchLimitNote, int messageLimit, long maxBodySize) {}
