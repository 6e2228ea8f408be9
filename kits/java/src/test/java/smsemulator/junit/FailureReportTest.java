package smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** A failing test names its timeline file in its failure: run through EngineTestKit, as a user's run would see it. */
class FailureReportTest {
  @SmsEmulatorTest
  @EnabledIfSystemProperty(named = "smsemu.inner", matches = "true")
  static class InnerFailing {
    @Test
    void failsOnAStatus(SmsWorld sms) {
      Map<String, Object> sent = sms.client.send(List.of("27831234567"), "Are you there?");
      assertEquals("delivered", sent.get("status"), (String) sent.get("id"));
    }
  }

  @Test
  void aFailingTestNamesItsTimelineFile() throws Exception {
    System.setProperty("smsemu.inner", "true");
    List<Event> failed;
    try {
      var events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(InnerFailing.class)).execute().testEvents();
      events.assertStatistics(stats -> stats.failed(1));
      failed = events.failed().list();
    } finally {
      System.clearProperty("smsemu.inner");
    }
    Throwable failure = failed.get(0).getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    var note = Arrays.stream(failure.getSuppressed())
        .filter(SmsEmulatorExtension.TimelineNote.class::isInstance).map(SmsEmulatorExtension.TimelineNote.class::cast).findFirst().orElseThrow();
    assertTrue(note.getMessage().startsWith("sms-emulator timeline: the emulator's timeline of this test's account: "));
    String page = Files.readString(note.path);
    String id = failure.getMessage().replaceAll("^(\\S+) ==>.*$", "$1");
    assertTrue(page.contains(id), "the timeline shows message " + id);
  }
}
