package dev.smsemulator.junit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The whole run's credit budget: with the JUnit configuration parameter {@value SmsEmulatorExtension#SUITE_BUDGET},
 * the extension keeps what each test's world spent, and when the run ends over the budget it fails, naming the tests
 * that spent most, each with its costliest message. Kept in the run's root store, which JUnit closes when the run ends.
 */
final class SuiteSpend implements AutoCloseable {
  /** How many of the costliest tests the failure names. */
  private static final int NAMED = 5;

  /** What one test's world spent. */
  private record TestSpend(String test, Spend spend) {}

  private final long budget;
  private final List<TestSpend> spent = new ArrayList<>();

  private SuiteSpend(long budget) {
    this.budget = budget;
  }

  /** The run's ledger when the run has a budget, else null (and no test is asked for its spend). */
  static SuiteSpend of(ExtensionContext context, ExtensionContext.Namespace namespace) {
    String text = context.getConfigurationParameter(SmsEmulatorExtension.SUITE_BUDGET).orElse(null);
    if (text == null) return null;
    long budget;
    try {
      budget = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      budget = -1;
    }
    if (budget < 0) throw new IllegalArgumentException(KitSettings.ERROR_PREFIX + SmsEmulatorExtension.SUITE_BUDGET + " takes credits from 0, not " + text);
    long credits = budget;
    return context.getRoot().getStore(namespace).getOrComputeIfAbsent("suite-spend", key -> new SuiteSpend(credits), SuiteSpend.class);
  }

  /** Keeps what a test's world spent (called before the world is deleted). */
  synchronized void record(String test, Spend spend) {
    spent.add(new TestSpend(test, spend));
  }

  /** The failure when the run spent more than its budget; null within it. */
  synchronized String overBudget() {
    long credits = spent.stream().mapToLong(each -> each.spend().credits()).sum();
    if (credits <= budget) return null;
    StringBuilder lines = new StringBuilder();
    spent.stream().filter(each -> each.spend().credits() > 0)
        .sorted(Comparator.comparingLong((TestSpend each) -> each.spend().credits()).reversed()).limit(NAMED).forEach(each -> {
      lines.append("\n  - ").append(each.test()).append(": ").append(Plural.of(each.spend().credits(), "credit"));
      if (!each.spend().top().isEmpty()) lines.append("; its costliest: ").append(each.spend().top().get(0).line());
    });
    return KitSettings.ERROR_PREFIX + "the suite spent " + Plural.of(credits, "credit") + " in " + Plural.of(spent.size(), "test")
        + ", over its budget of " + Plural.of(budget, "credit") + ". Top spenders:" + lines;
  }

  /** The run's end: fails it when it spent more than its budget. */
  @Override
  public void close() {
    String failure = overBudget();
    if (failure != null) throw new AssertionError(failure);
  }
}
