package dev.smsemulator.junit;

/** One API request of the request journal, accepted or rejected (status 0: a network fault answered nothing). */
public record JournalEntry(
    String id,
    String wallTime,
    String time,
    String method,
    String path,
    String query,
    String environment,
    String account,
    int status,
    String network,
    String code,
    String messageId,
    double durationMs,
    Object requestBody,
    Object responseBody) {}
