package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The kit's defaults and units against the contract's {@code settings} and {@code container}
 * (test-vectors/kit-contract.json): the error prefix, the start and control timeouts, the wait's {@code within}, the
 * duration grammar's bounds, the container's image, port, health path and variables, and every example text read as
 * the contract says, through the same function the start timeout is read with. A default or a unit changed in the kit
 * alone fails here.
 */
class KitSettingsTest {
  static Map<String, Object> settings() throws IOException {
    return KitContractTest.at(KitContractTest.contract(), "settings");
  }

  static Duration ms(Map<String, Object> setting) {
    return Duration.ofMillis(((Number) setting.get("ms")).longValue());
  }

  @Test
  void theDefaultsAreTheContracts() throws IOException {
    Map<String, Object> settings = settings();
    assertEquals(settings.get("errorPrefix"), KitSettings.ERROR_PREFIX);
    Map<String, Object> start = KitContractTest.at(settings, "startTimeout");
    assertEquals(start.get("env"), KitSettings.START_TIMEOUT_ENV);
    assertEquals(ms(start), KitSettings.START_TIMEOUT);
    assertEquals(ms(start), Emulator.startTimeout(null), "unset, the start timeout is the contract's");
    assertEquals(ms(start), Emulator.startTimeout(" "));
    assertEquals(ms(KitContractTest.at(settings, "controlTimeout")), KitSettings.CONTROL_TIMEOUT);
    assertEquals(ms(KitContractTest.at(settings, "waitWithin")), KitSettings.WAIT_WITHIN);
    assertEquals(((Number) KitContractTest.at(settings, "webhookBodyLimit").get("bytes")).longValue(), KitSettings.WEBHOOK_BODY_LIMIT);
    assertEquals(KitContractTest.at(KitContractTest.contract(), "resolution").get("env"), Resolution.ENV);
  }

  @Test
  void theContainerSettingsAreTheContracts() throws IOException {
    Map<String, Object> container = KitContractTest.at(KitContractTest.contract(), "container");
    assertEquals(container.get("image"), KitSettings.Container.IMAGE);
    assertEquals(container.get("repository"), KitSettings.Container.REPOSITORY);
    assertEquals(container.get("imageEnv"), KitSettings.Container.IMAGE_ENV);
    assertEquals(((Number) container.get("port")).intValue(), KitSettings.Container.PORT);
    assertEquals(container.get("healthPath"), KitSettings.Container.HEALTH_PATH);
    assertEquals(container.get("controlTokenEnv"), KitSettings.Container.CONTROL_TOKEN_ENV);
    assertEquals(container.get("allowedHostsEnv"), KitSettings.Container.ALLOWED_HOSTS_ENV);
  }

  @Test
  void theGrammarsBoundsAreTheContracts() throws IOException {
    Map<String, Object> grammar = KitContractTest.at(settings(), "durationGrammar");
    assertEquals(grammar.get("pattern"), KitSettings.DURATION_PATTERN.pattern());
    assertEquals(grammar.get("units"), Map.copyOf(KitSettings.DURATION_UNITS));
    assertEquals(grammar.get("bareNumberUnit"), KitSettings.BARE_NUMBER_UNIT);
    assertEquals(((Number) grammar.get("minExclusiveMs")).longValue(), KitSettings.MIN_EXCLUSIVE_MS);
    assertEquals(((Number) grammar.get("maxMs")).longValue(), KitSettings.MAX_MS);
    assertEquals(grammar.get("problem"), KitSettings.DURATION_PROBLEM);
  }

  @TestFactory
  @SuppressWarnings("unchecked")
  Stream<DynamicTest> theStartTimeoutReadsEveryExampleAsTheContractDoes() throws IOException {
    Map<String, Object> grammar = KitContractTest.at(settings(), "durationGrammar");
    String problem = (String) grammar.get("problem");
    return ((List<Map<String, Object>>) grammar.get("examples")).stream().map(example -> DynamicTest.dynamicTest(
        "SMS_EMULATOR_START_TIMEOUT=\"" + example.get("text") + "\"", () -> {
          String text = (String) example.get("text");
          if (example.get("ms") instanceof Number ms) assertEquals(Duration.ofMillis(ms.longValue()), Emulator.startTimeout(text));
          else {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Emulator.startTimeout(text));
            assertEquals(problem.replace("{name}", "SMS_EMULATOR_START_TIMEOUT").replace("{text}", text), refused.getMessage());
          }
        }));
  }
}
