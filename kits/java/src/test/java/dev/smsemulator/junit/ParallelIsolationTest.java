package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Tests run concurrently (junit-platform.properties), each on its own clock: none sees another's time or messages. */
@SmsEmulatorTest
class ParallelIsolationTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void aTestSeesOnlyItsOwnTimeAndMessages(int hours, SmsWorld sms) {
    var start = sms.now();
    sms.clock.advance(hours + "h");
    String id = sms.client.send(List.of("27831234567"), "Test " + hours).id();
    sms.waitFor(id, "delivered");
    assertEquals(List.of("Test " + hours), sms.messages().stream().map(ControlMessage::message).toList());
    assertEquals(2, sms.webhooks().size());
    Duration moved = Duration.between(start, sms.now());
    assertTrue(moved.compareTo(Duration.ofHours(hours)) >= 0 && moved.compareTo(Duration.ofHours(hours).plusMinutes(1)) < 0, moved.toString());
  }
}
