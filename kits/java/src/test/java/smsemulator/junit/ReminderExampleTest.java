package smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@SmsEmulatorTest
class ReminderExampleTest {
  @Test
  void aReminderGoesOutAtItsTimeAndIsDelivered(SmsWorld sms) {
    Map<String, Object> scheduled = sms.client.schedule(
        List.of("27831234567"), "Your appointment is at 10:00", sms.now().plus(Duration.ofMinutes(30)));
    assertEquals("scheduled", scheduled.get("status"));

    sms.clock.advance("29m");
    assertEquals("scheduled", sms.client.get((String) scheduled.get("id")).get("status"));

    sms.waitFor((String) scheduled.get("id"), "delivered"); // moves the test's clock; fails with the history
    sms.assertSent("27831234567", "appointment");
    sms.assertWebhook((String) scheduled.get("id"), "delivered");
  }
}
