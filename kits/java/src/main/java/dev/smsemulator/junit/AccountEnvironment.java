package dev.smsemulator.junit;

import java.util.List;

/** An account's side in one environment (live or sandbox): balance, webhook URL, opted-out numbers, message count. */
public record AccountEnvironment(long balance, String webhookUrl, List<String> optOuts, long messages) {}
