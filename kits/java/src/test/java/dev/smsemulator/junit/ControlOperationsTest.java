package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The control operations through {@link Control}, answered as records, on an emulator of the class's own (reset,
 * restore, the active scenario and chaos change the whole emulator, so they never touch the run's shared one).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ControlOperationsTest {
  Emulator emulator;
  Control control;

  @BeforeAll
  void start() {
    Resolution.Found found = Resolution.resolve(Resolution.Environment.current());
    emulator = found.step().equals("url") ? Emulator.start() : Emulator.start(found);
    control = emulator.control;
  }

  @AfterAll
  void stop() {
    emulator.close();
  }

  @Test
  void aMessagesLifeThroughTheControlApi() {
    try (SmsWorld world = new SmsWorld(emulator, "control operations")) {
      String key = world.apiKey;
      String id = world.client.send(List.of("27831234567", "27831234568"), "Two legs").id();
      ControlMessage message = control.messagesGet(id);
      assertEquals(key, message.account());
      assertEquals(2, message.legs().size());
      assertEquals("live", message.environment());
      ControlMessage forced = control.messagesForceStatus(id, Map.of("status", "undelivered", "recipient", "27831234568"));
      assertEquals("undelivered", forced.legs().stream().filter(leg -> leg.recipient().equals("27831234568")).findFirst().orElseThrow().status());
      WaitResult waited = control.messagesWait(id, "delivered", Duration.ofHours(1));
      assertEquals(world.clock.id, waited.clock().id());
      ControlMessage reply = control.repliesInject(id, Map.of("from", "27831234567", "text", "Thanks"));
      assertEquals("sms-reply", reply.type());
      assertEquals(List.of("Thanks"), control.repliesList(Map.of("account", key)).items().stream().map(ControlMessage::message).toList());
      assertEquals(1, control.messagesList(Map.of("account", key)).total());

      Page<WebhookEvent> log = control.webhooksList(Map.of("account", key));
      assertTrue(log.total() >= 3, "submitted, outcomes and the reply: " + log.total());
      WebhookEvent event = control.webhooksGet(log.items().get(0).id());
      assertEquals(id, event.messageId());
      assertEquals(event.attempts().size() + 1, control.webhooksRedeliver(event.id()).attempts().size());
      assertEquals("settled", control.webhooksSettled(key).status());

      assertTrue(control.requestsCount(Map.of("account", key)) >= 1);
      assertEquals("POST", control.requestsFind(Map.of("account", key, "method", "POST")).items().get(0).method());
      assertTrue(control.optOutsAdd("27831234569", Map.of("account", key)).optedOut());
      assertEquals(List.of("27831234569"), control.optOutsList(Map.of("account", key)).items());
      assertFalse(control.optOutsRemove("27831234569", Map.of("account", key)).optedOut());

      SignatureResult signed = control.sign(Map.of("message", "Hi", "recipient", List.of("27831234567")), key);
      assertEquals(Signing.sign(Map.of("message", "Hi", "recipient", List.of("27831234567")), world.signingSecret), signed.signature());
      assertEquals(Signing.canonicalString(Map.of("message", "Hi", "recipient", List.of("27831234567"))), signed.stringToSign());
    }
  }

  @Test
  void clocksAccountsAndScenarios() {
    ClockView clock = control.clocksCreate(Map.of("name", "by hand", "startTime", "2026-12-01T08:00:00Z"));
    assertEquals(Instant.parse("2026-12-01T08:00:00Z"), clock.now());
    assertEquals(Instant.parse("2026-12-01T08:15:00Z"), control.clocksAdvance(clock.id(), Duration.ofMinutes(15)).now());
    assertEquals(Instant.parse("2026-12-01T09:00:00Z"), control.clocksSet(clock.id(), Instant.parse("2026-12-01T09:00:00Z")).now());
    assertTrue(control.clocksRunUntilIdle(clock.id(), "1d").run().idle());
    assertNotNull(control.clocksNext(clock.id()).run());
    assertTrue(control.clocksList().items().stream().anyMatch(listed -> listed.id().equals(clock.id())));
    Account account = control.accountsCreate(Map.of("apiKey", "pk_test_by_hand", "clock", clock.id(), "balance", 5));
    assertEquals(clock.id(), account.clock());
    assertEquals(15, control.accountsUpdate("pk_test_by_hand", Map.of("live", Map.of("addBalance", 10))).live().balance());
    assertEquals(control.accountsUseBundledScenario("pk_test_by_hand", "rate-limited"), control.accountsGetScenario("pk_test_by_hand"));
    control.accountsSetScenario("pk_test_by_hand", "rules: []\n");
    control.accountsClearScenario("pk_test_by_hand");
    assertTrue(control.accountsList(Map.of("limit", 1000)).items().stream().anyMatch(a -> a.apiKey().equals("pk_test_by_hand")));
    assertEquals("pk_test_by_hand", control.accountsGet("pk_test_by_hand").apiKey());
    control.accountsDelete("pk_test_by_hand");
    control.clocksDelete(clock.id());
    ControlException gone = assertThrows(ControlException.class, () -> control.clocksGet(clock.id()));
    assertEquals("CONTROL_NOT_FOUND", gone.code);
    assertEquals(404, gone.status);
  }

  @Test
  void theLimitsAndAReceiverCheckRunByTheEmulatorAreTyped() {
    Limits limits = control.limits();
    assertTrue(limits.batchLimit() > 0);
    assertTrue(limits.messageLimit() > 0);
    assertTrue(limits.maxBodySize() > 0);
    assertFalse(limits.batchLimitNote().isEmpty());
    // Nothing listens on port 9: the report says so instead of failing the call.
    ReceiverReport report = control.receiverCheck(Map.of("receiver", "http://127.0.0.1:9/hooks", "receiverTimeout", Duration.ofSeconds(1)));
    assertEquals("http://127.0.0.1:9/hooks", report.url());
    assertFalse(report.passed());
  }

  @Test
  void theWholeEmulatorsStateClockScenarioAndChaos() {
    assertEquals("ok", control.health().status());
    MainClockView main = control.clockState();
    assertEquals(main.now(), control.clockNow());
    assertEquals("manual", main.mode());
    assertTrue(control.clockAdvance("1m").now().isAfter(main.now()));
    assertEquals(Instant.parse("2030-01-01T00:00:00Z"), control.clockSet(Instant.parse("2030-01-01T00:00:00Z")).now());
    assertTrue(control.clockRunUntilIdle(Duration.ofDays(1)).run().idle());
    assertNotNull(control.clockNext().run());
    assertEquals("manual", control.clockConfigure(Map.of("mode", "manual")).mode());
    assertEquals("manual", control.clockMove(Map.of("advance", "1s")).mode());

    assertFalse(control.scenarioBundled().scenarios().isEmpty());
    control.scenarioUseBundled("happy-path");
    assertNotNull(control.scenarioGet().get("rules"));
    control.scenarioSet("version: 1\nrules: []\n");
    assertEquals(0.25, control.webhooksSetChaos(Map.of("duplicateRate", 0.25, "delay", Duration.ofSeconds(2))).duplicateRate());
    assertEquals(2000, control.webhooksChaos().delay());
    control.webhooksSetChaos(Map.of("duplicateRate", 0, "delay", 0));

    Map<String, Object> state = control.snapshot();
    control.accountsCreate(Map.of("apiKey", "pk_test_after_snapshot"));
    assertEquals("restored", control.restore(state).status());
    assertThrows(ControlException.class, () -> control.accountsGet("pk_test_after_snapshot"));
    assertEquals("reset", control.reset(null).status());
  }
}
