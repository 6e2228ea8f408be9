package dev.smsemulator.junit;

/** A control answer that only says how it went: {@code ok}, {@code settled}, {@code reset}, {@code restored}. */
public record Status(String status) {}
