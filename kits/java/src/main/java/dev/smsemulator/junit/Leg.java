package dev.smsemulator.junit;

import java.util.List;

/** One recipient's leg of a message: its status, history and the changes still planned. */
public record Leg(String recipient, String status, List<StatusChange> history, List<StatusChange> upcoming) {}
