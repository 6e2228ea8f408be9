package dev.smsemulator.junit;

/** One try of a webhook event: its number, when, where, how long, and the receiver's status or the error. */
public record WebhookAttempt(int number, String at, String url, double durationMs, boolean ok, int status, String error) {}
