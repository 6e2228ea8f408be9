package dev.smsemulator.junit;

/** A change of a number's opt-out: account, environment, number and whether it is now opted out. */
public record OptOut(String account, String environment, String number, boolean optedOut) {}
