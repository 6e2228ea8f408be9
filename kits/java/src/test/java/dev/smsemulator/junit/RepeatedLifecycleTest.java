package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.RepeatedTest;

/** A world's whole life, fifty times in a row in one run: made, a send delivered and its webhooks seen, deleted. */
@SmsEmulatorTest
class RepeatedLifecycleTest {
  @RepeatedTest(50)
  void aWorldIsMadeUsedAndDeleted(SmsWorld sms) {
    String id = sms.client.send(List.of("27831234567"), "Your order shipped").id();
    sms.waitFor(id, "delivered");
    sms.assertWebhook(id, "delivered");
    sms.assertSent("27831234567", "shipped");
    assertEquals(2, sms.received().size());
  }
}
