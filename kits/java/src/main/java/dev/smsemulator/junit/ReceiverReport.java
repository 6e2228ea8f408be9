package dev.smsemulator.junit;

import java.util.List;

/** check-receiver's report of a webhook receiver: whether every check passed, and each check's result. */
public record ReceiverReport(String url, boolean passed, long timeoutMs, List<ReceiverReport.Check> checks) {
  /** One check: what it sent, whether it passed and why, and what a gateway does next. */
  public record Check(String name, String sends, boolean passed, String reason, String gatewayNext) {}
}
