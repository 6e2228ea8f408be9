package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The world's acts of docs/decisions/0003-one-facade.md that the other tests do not already prove, from the user's side. */
@SmsEmulatorTest
class FacadeTest {
  @Test
  void aReplyTakesTheTextFirstAndTheSenderAsASender(SmsWorld sms) {
    String id = sms.client.send(List.of("27831234567", "27831234568"), "Table for two at 8?").id();
    sms.waitFor(id, "delivered");
    ControlMessage fromTheFirst = sms.reply(id, "Yes");
    assertEquals("Yes", fromTheFirst.message());
    assertEquals(List.of("27831234567"), fromTheFirst.recipient(), "from the first recipient");
    ControlMessage fromTheSecond = sms.reply(id, "No", Sender.of("27831234568"));
    assertEquals("No", fromTheSecond.message());
    assertEquals(List.of("27831234568"), fromTheSecond.recipient());
    assertTrue(sms.webhooks().stream().anyMatch(payload -> "No".equals(payload.get("message"))), "the reply's webhook was kept");
  }

  @Test
  void aMessageIsFoundByItsClientReference(SmsWorld sms) {
    sms.client.sendWith(Map.of("recipient", List.of("27831234567"), "message", "Order 17 shipped", "client_reference", "order-17"));
    String newest = sms.client.sendWith(Map.of("recipient", List.of("27831234567"), "message", "Order 17 delivered", "client_reference", "order-17")).id();
    sms.client.sendWith(Map.of("recipient", List.of("27831234567"), "message", "Order 18 shipped", "client_reference", "order-18"));
    ControlMessage found = sms.messageByReference("order-17").orElseThrow();
    assertEquals(newest, found.id(), "the newest with that reference");
    assertEquals("order-17", found.clientReference());
    assertFalse(sms.messageByReference("order-1").isPresent(), "exact, not a prefix");
    assertEquals(2, sms.messages(Map.of("clientReference", "order-17")).size());
  }

  @Test
  @WorldSettings(balance = 40, sandboxBalance = 7)
  void anOptOutAndTheBalanceOfEachEnvironment(SmsWorld sms) {
    assertEquals(40, sms.balance());
    assertEquals(7, sms.balance("sandbox"));
    OptOut optedOut = sms.optOut("27831234569");
    assertTrue(optedOut.optedOut());
    assertEquals("live", optedOut.environment());
    assertEquals(List.of("27831234569"), sms.account().live().optOuts());
    assertEquals("sandbox", sms.optOut("27831234569", "sandbox").environment());
  }

  @Test
  void theWebhookLogTakesAFilterAndTheTimelineIsHtml(SmsWorld sms) {
    String first = sms.client.send(List.of("27831234567"), "One").id();
    String second = sms.client.send(List.of("27831234567"), "Two").id();
    sms.waitFor(first, "delivered");
    sms.waitFor(second, "delivered");
    List<WebhookEvent> log = sms.webhookLog(Map.of("message", second));
    assertFalse(log.isEmpty());
    assertTrue(log.stream().allMatch(event -> event.messageId().equals(second)));
    assertTrue(sms.timelineHtml().contains(second));
    Map<String, Object> scenario = sms.scenario("rules: []\n");
    assertEquals(List.of(), scenario.get("rules"));
  }
}
