package dev.smsemulator.junit;

/** What {@code POST /_emulator/worlds} answers: the world's test clock and its account. */
public record WorldView(ClockView clock, Account account) {}
