package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A world's own settings: by annotation on the class or the method, by the builder, and what @BeforeEach gets. */
@SmsEmulatorTest
@WorldSettings(balance = 7)
class WorldSettingsTest {
  SmsWorld injected;

  @BeforeEach
  void keep(SmsWorld sms) {
    injected = sms;
  }

  @Test
  void beforeEachGetsTheTestsOwnWorld(SmsWorld sms) {
    assertSame(injected, sms);
  }

  @Test
  void theClassesSettingsHoldForItsTests(SmsWorld sms) {
    assertEquals(7, sms.account.live().balance());
    assertEquals(7, sms.client.balance());
  }

  @Test
  @WorldSettings(
      signingSecret = "sk_team_secret",
      startTime = "2026-11-23T09:00:00+02:00",
      balance = 50,
      sandboxBalance = 3,
      environment = "sandbox",
      scopes = {"send", "read"})
  void aMethodsSettingsMakeItsWorld(SmsWorld sms) {
    assertEquals("sk_team_secret", sms.signingSecret);
    assertEquals("sk_team_secret", sms.account().signingSecret());
    assertEquals(Instant.parse("2026-11-23T07:00:00Z"), sms.now());
    assertEquals(50, sms.account.live().balance());
    assertEquals(3, sms.account.sandbox().balance());
    assertEquals(List.of("send", "read"), sms.account.scopes());
    assertEquals(sms.baseUrl + "/sandbox/v1", sms.apiBaseUrl);
    String id = sms.client.send(List.of("27831234567"), "From the sandbox").id();
    assertEquals("sandbox", sms.control().messagesGet(id).environment());
    SmsApiException refused = assertThrows(SmsApiException.class, () -> sms.client.balance());
    assertEquals(403, refused.status, "no balance scope");
  }

  @Test
  @WorldSettings(bundledScenario = "rate-limited")
  void aBundledScenarioByAnnotation(SmsWorld sms) {
    for (int i = 0; i < 5; i++) sms.client.send(List.of("27831234567"), "Within the limit");
    assertEquals("TOO_MANY_REQUESTS", assertThrows(SmsApiException.class, () -> sms.client.send(List.of("27831234567"), "Over")).code);
  }

  @Test
  void theBuilderTakesJavaTime(Emulator emulator) {
    Instant start = Instant.parse("2027-01-04T07:00:00Z");
    try (SmsWorld world = SmsWorld.builder().name("built").startTime(start).balance(12).signingSecret("sk_built").create(emulator)) {
      assertEquals(start, world.now());
      assertEquals(12, world.client.balance());
      world.clock.advance(Duration.ofMinutes(90));
      assertEquals(start.plus(Duration.ofMinutes(90)), world.now());
      assertEquals(start.plus(Duration.ofMinutes(90)), world.control().clocksNow(world.clock.id));
    }
  }
}
