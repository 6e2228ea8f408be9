package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * A failing test names its timeline file in its failure, written under target/ in the run's own folder by the kit
 * contract's name rule: run through EngineTestKit, as a user's run would see it.
 */
class FailureReportTest {
  @SmsEmulatorTest
  @EnabledIfSystemProperty(named = "smsemu.inner", matches = "true")
  static class InnerFailing {
    @Test
    void failsOnAStatus(SmsWorld sms) {
      Message sent = sms.client.send(List.of("27831234567"), "Are you there?");
      assertEquals("delivered", sent.status(), sent.id());
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
    assertEquals(Timelines.folder(), note.path.getParent(), "the run's own folder under target/");
    assertTrue(note.path.getParent().startsWith(Path.of("target", "sms-emulator-timelines").toAbsolutePath()), note.path.toString());
    assertEquals(Timelines.fileName(failed.get(0).getTestDescriptor().getUniqueId().toString()), note.path.getFileName().toString());
    String page = Files.readString(note.path);
    String id = failure.getMessage().replaceAll("^(\\S+) ==>.*$", "$1");
    assertTrue(page.contains(id), "the timeline shows message " + id);
  }
}
