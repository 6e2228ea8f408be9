package dev.smsemulator.junit;

/** Receiver chaos in force: rates from 0 to 1, and the delay in milliseconds. */
public record Chaos(double duplicateRate, double delayRate, double reorderRate, double delay) {}
