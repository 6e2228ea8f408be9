package dev.smsemulator.junit;

/** The delivery-behaviour rates in force (emulator-wide duplicate, late and reorder with a probability): rates from 0 to 1, and the delay in milliseconds. */
public record Chaos(double duplicateRate, double delayRate, double reorderRate, double delay) {}
