package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The cost checks of issue 41 from the user's side: a UCS-2 text fails assertStaysGsm7 and assertFitsSegments with the
 * emulator's breakdown and its GSM-7 fix passes; assertCostAtMost and a test's {@link CostBudget} name the top spenders;
 * a run over its budget ({@link SmsEmulatorExtension#SUITE_BUDGET}) fails at its end naming the tests that spent most,
 * run through EngineTestKit as a user's run would see it.
 */
@SmsEmulatorTest
class CostChecksTest {
  private static final String BREAKDOWN = "UCS-2, 10 UTF-16 units, 1 segment: \"It’s ready\"\n"
      + "  position 3: \"’\" U+2019 RIGHT SINGLE QUOTATION MARK, use \"'\"\n"
      + "  with those replaced: GSM-7, 1 segment";

  @Test
  void aCurlyApostropheFailsStaysGsm7WithTheBreakdownAndTheFixPasses(SmsWorld sms) {
    AssertionError text = assertThrows(AssertionError.class, () -> sms.assertStaysGsm7("It’s ready"));
    assertEquals("expected the text to stay GSM-7; it is " + BREAKDOWN, text.getMessage());
    Message sent = sms.client.send(List.of("27831234567"), "It’s ready");
    AssertionError message = assertThrows(AssertionError.class, () -> sms.assertStaysGsm7(sent));
    assertEquals(text.getMessage(), message.getMessage(), "a sent message is checked by its text");
    assertEquals("GSM-7", sms.assertStaysGsm7("It's ready").encoding());
    sms.assertStaysGsm7(sms.client.send(List.of("27831234567"), "It's ready"));
  }

  @Test
  void anEnDashFailsFitsSegmentsWithTheBreakdownAndTheFixFits(SmsWorld sms) {
    String text = "Your order has shipped – track it at https://shop.example/t/123456 or reply STOP";
    AssertionError failure = assertThrows(AssertionError.class, () -> sms.assertFitsSegments(text, 1));
    assertEquals("expected the text to fit 1 segment; it is UCS-2, 80 UTF-16 units, 2 segments: \"" + text + "\"\n"
        + "  position 24: \"–\" U+2013 EN DASH, use \"-\"\n"
        + "  with those replaced: GSM-7, 1 segment", failure.getMessage());
    assertEquals(2, sms.assertFitsSegments(text, 2).segments());
    String id = sms.client.send(List.of("27831234567"), text.replace('–', '-')).id();
    ControlMessage fixed = sms.messages().stream().filter(m -> m.id().equals(id)).findFirst().orElseThrow();
    assertEquals(1, sms.assertFitsSegments(fixed, 1).segments());
    assertThrows(IllegalArgumentException.class, () -> sms.assertFitsSegments(text, 0));
  }

  @Test
  void assertCostAtMostNamesTheTopSpenders(SmsWorld sms) {
    sms.client.send(List.of("27831234567"), "See you at 8");
    sms.client.send(List.of("27831234567", "27831234568"), "Your parcel’s here");
    assertEquals(3, sms.assertCostAtMost(3).credits());
    AssertionError failure = assertThrows(AssertionError.class, () -> sms.assertCostAtMost(2));
    assertEquals("expected account " + sms.apiKey + " to cost at most 2 credits; it " + sms.spend().summary(), failure.getMessage());
    assertTrue(failure.getMessage().contains("; it spent 3 credits on 2 messages. Top spenders:\n  - 2 credits: to 27831234567, "
        + "27831234568: \"Your parcel’s here\" (UCS-2, 1 segment × 2 recipients; UCS-2 forced by \"’\" at 12)\n  - 1 credit: "),
        failure.getMessage());
  }

  /** Run only by the tests below, through EngineTestKit: 6 credits in all, one test over its own budget. */
  @SmsEmulatorTest
  @EnabledIfSystemProperty(named = "smsemu.inner.spenders", matches = "true")
  @CostBudget(1)
  static class InnerSpenders {
    @Test
    void aSmallSpender(SmsWorld sms) {
      sms.client.send(List.of("27831234567"), "See you at 8");
    }

    @Test
    void overTheClasssBudget(SmsWorld sms) {
      sms.client.send(List.of("27831234567", "27831234568"), "Your parcel’s here");
    }

    @Test
    @CostBudget(3)
    void theBigSpender(SmsWorld sms) {
      sms.client.send(List.of("27831234567", "27831234568"), "Your parcel’s here");
      sms.client.send(List.of("27831234567"), "Table for two?");
    }
  }

  @Test
  @ResourceLock("smsemu.inner.spenders")
  void aTestOverItsCostBudgetFailsNamingItsTopSpendersAndItsTimeline() {
    var events = runInner(Map.of()).testEvents();
    events.assertStatistics(stats -> stats.succeeded(2).failed(1));
    var failed = events.failed().list().get(0);
    assertEquals("overTheClasssBudget(SmsWorld)", failed.getTestDescriptor().getDisplayName());
    Throwable failure = failed.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    assertEquals("expected this test to cost at most 1 credit; it spent 2 credits on 1 message. Top spenders:\n"
        + "  - 2 credits: to 27831234567, 27831234568: \"Your parcel’s here\" (UCS-2, 1 segment × 2 recipients; UCS-2 forced by \"’\" at 12)",
        failure.getMessage());
    assertTrue(Arrays.stream(failure.getSuppressed()).anyMatch(SmsEmulatorExtension.TimelineNote.class::isInstance), "its timeline");
  }

  @Test
  @ResourceLock("smsemu.inner.spenders")
  void aRunOverItsSuiteBudgetFailsAtItsEndNamingTheTestsThatSpentMost() {
    EngineExecutionResults over = runInner(Map.of(SmsEmulatorExtension.SUITE_BUDGET, "5"));
    var failed = over.containerEvents().failed().list();
    assertEquals(1, failed.size(), "the run itself fails");
    assertEquals("JUnit Jupiter", failed.get(0).getTestDescriptor().getDisplayName());
    Throwable failure = failed.get(0).getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    assertEquals("sms-emulator: the suite spent 6 credits in 3 tests, over its budget of 5 credits. Top spenders:\n"
        + "  - InnerSpenders.theBigSpender(SmsWorld): 3 credits; its costliest: 2 credits: to 27831234567, 27831234568: "
        + "\"Your parcel’s here\" (UCS-2, 1 segment × 2 recipients; UCS-2 forced by \"’\" at 12)\n"
        + "  - InnerSpenders.overTheClasssBudget(SmsWorld): 2 credits; its costliest: 2 credits: to 27831234567, 27831234568: "
        + "\"Your parcel’s here\" (UCS-2, 1 segment × 2 recipients; UCS-2 forced by \"’\" at 12)\n"
        + "  - InnerSpenders.aSmallSpender(SmsWorld): 1 credit; its costliest: 1 credit: to 27831234567: \"See you at 8\" "
        + "(GSM-7, 1 segment × 1 recipient)", failure.getMessage());

    EngineExecutionResults within = runInner(Map.of(SmsEmulatorExtension.SUITE_BUDGET, "6"));
    within.containerEvents().assertStatistics(stats -> stats.failed(0));
    within.testEvents().assertStatistics(stats -> stats.succeeded(2).failed(1));
  }

  @Test
  @ResourceLock("smsemu.inner.spenders")
  void aSuiteBudgetThatIsNotCreditsIsRefusedByName() {
    var events = runInner(Map.of(SmsEmulatorExtension.SUITE_BUDGET, "lots")).testEvents();
    Throwable failure = events.failed().list().get(0).getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    assertEquals("sms-emulator: sms-emulator.suite-budget takes credits from 0, not lots", failure.getMessage());
  }

  /** Runs {@link InnerSpenders} in an engine of its own (so a run of its own: its own emulator and root store). */
  private static EngineExecutionResults runInner(Map<String, String> parameters) {
    System.setProperty("smsemu.inner.spenders", "true");
    try {
      return EngineTestKit.engine("junit-jupiter").configurationParameters(parameters).selectors(selectClass(InnerSpenders.class)).execute();
    } finally {
      System.clearProperty("smsemu.inner.spenders");
    }
  }
}
