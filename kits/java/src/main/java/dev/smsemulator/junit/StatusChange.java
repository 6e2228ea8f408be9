package dev.smsemulator.junit;

/** One step of a message's (or leg's) history: the status and when, in the emulator's time. */
public record StatusChange(String status, String at) {}
