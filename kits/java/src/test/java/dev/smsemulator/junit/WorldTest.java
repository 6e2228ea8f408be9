package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SmsWorld parameter through the user's own path: a real emulator process, its control API, a real webhook socket. */
@SmsEmulatorTest
class WorldTest {
  @Test
  void aScheduledSendGoesOutWhenTheTestMovesItsClock(SmsWorld sms) {
    Message scheduled = sms.client.schedule(List.of("27831234567"), "Your table is ready", sms.now().plus(Duration.ofMinutes(20)));
    assertEquals("scheduled", scheduled.status());
    var at = OffsetDateTime.parse(scheduled.schedule()).toInstant();
    String id = scheduled.id();
    sms.clock.set(at.minusSeconds(1));
    assertEquals("scheduled", sms.client.get(id).status());
    sms.clock.set(at);
    assertNotEquals("scheduled", sms.client.get(id).status());
    sms.waitFor(id, "delivered");
    sms.assertWebhook(id, "delivered");
  }

  @Test
  void aWebhookAnswered500IsSentAgain(SmsWorld sms) {
    sms.catcher.respondWith(500, 200);
    String id = sms.client.send(List.of("27831234567"), "Twice").id();
    sms.waitFor(id, "delivered");
    var tries = sms.catcher.received().stream().filter(c -> "submitted".equals(c.json().get("status"))).toList();
    assertEquals(2, tries.size());
    assertEquals(tries.get(0).headers().get("x-emulator-event-id"), tries.get(1).headers().get("x-emulator-event-id"));
    assertEquals("2", tries.get(1).header("X-Emulator-Attempt"));
    assertEquals(List.of(500, 200), tries.stream().map(Webhook::answered).toList());
    sms.assertWebhook(id, "delivered");
  }

  @Test
  void aNetworkFaultIsAClearErrorAndTheNextSendWorks(SmsWorld sms) {
    sms.scenario(Map.of("faults", List.of(Map.of("match", Map.of("operation", "send"), "network", "reset", "count", 1))));
    SmsApiException lost = assertThrows(SmsApiException.class, () -> sms.client.send(List.of("27831234567"), "Lost"));
    assertEquals("NETWORK_ERROR", lost.code);
    assertEquals(0, lost.status);
    assertEquals("pending", sms.client.send(List.of("27831234567"), "Through").status());
  }

  @Test
  void aRateLimitIsClearedByMovingTheClockByRetryAfter(SmsWorld sms) {
    sms.useBundledScenario("rate-limited");
    for (int i = 0; i < 5; i++) sms.client.send(List.of("27831234567"), "Within the limit");
    SmsApiException limited = assertThrows(SmsApiException.class, () -> sms.client.send(List.of("27831234567"), "Over it"));
    assertEquals("TOO_MANY_REQUESTS", limited.code);
    assertTrue(limited.retryAfter >= 1);
    sms.clock.advance(Duration.ofSeconds(limited.retryAfter));
    assertEquals("pending", sms.client.send(List.of("27831234567"), "Allowed again").status());
  }

  @Test
  void errorsCarryTheCodeStatusAndDescription(SmsWorld sms) {
    SmsApiException bad = assertThrows(SmsApiException.class, () -> sms.client.send(List.of("0831234567"), "Bad number"));
    assertEquals("INVALID_RECIPIENT_ENTRY", bad.code);
    assertEquals(400, bad.status);
    assertTrue(bad.description.contains("0831234567"));
  }

  @Test
  void aWaitThatCannotSucceedFailsWithTheHistory(SmsWorld sms) {
    String id = sms.client.send(List.of("27831234567"), "Never undelivered").id();
    AssertionError failure = assertThrows(AssertionError.class, () -> sms.waitFor(id, "undelivered"));
    assertTrue(failure.getMessage().contains("did not reach \"undelivered\""), failure.getMessage());
    assertTrue(failure.getMessage().contains("history"), failure.getMessage());
  }

  @Test
  void anAddressThatIsNotAnEmulatorIsAClearError() throws Exception {
    var page = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    page.createContext("/", exchange -> {
      byte[] html = "<html>my app</html>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/html");
      exchange.sendResponseHeaders(200, html.length);
      exchange.getResponseBody().write(html);
      exchange.close();
    });
    page.start();
    try {
      Control control = new Control("http://127.0.0.1:" + page.getAddress().getPort(), null);
      IllegalStateException refused = assertThrows(IllegalStateException.class, () -> Emulator.checkIsEmulator(control));
      assertTrue(refused.getMessage().contains("is not an sms-emulator: /_emulator/health answered <html>my app</html>"), refused.getMessage());
    } finally {
      page.stop(0);
    }
  }
}
