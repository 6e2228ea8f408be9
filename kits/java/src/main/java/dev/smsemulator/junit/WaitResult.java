package dev.smsemulator.junit;

/** What a wait answers: the message once it had the status, and its clock then ({@code id}, {@code now}, {@code time}). */
public record WaitResult(ControlMessage message, ClockView clock) {}
