package dev.smsemulator.testcontainers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.smsemulator.junit.Emulator;
import dev.smsemulator.junit.SmsEmulatorTest;
import dev.smsemulator.junit.SmsWorld;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code @SmsEmulatorTest(container = true)} finds this module's provider (META-INF/services) and gives each test a
 * world on the run's container, as the kit gives one on the carried runtime.
 */
@Tag("container")
@SmsEmulatorTest(container = true)
class ContainerSwitchSuiteTest {
  @Test
  void theWorldIsOnTheRunsContainer(SmsWorld sms, Emulator emulator) {
    assertEquals("url", emulator.found.step());
    assertNotEquals("127.0.0.1", emulator.webhookHost, "webhooks come from the container through its gateway: " + emulator.webhookHost);
    String id = sms.client.send(List.of("27831234567"), "Switched with one line").id();
    sms.waitFor(id, "delivered");
    sms.assertWebhook(id, "delivered");
  }
}
