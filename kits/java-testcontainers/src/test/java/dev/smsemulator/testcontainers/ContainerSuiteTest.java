package dev.smsemulator.testcontainers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.smsemulator.junit.ControlException;
import dev.smsemulator.junit.CostExplanation;
import dev.smsemulator.junit.Emulator;
import dev.smsemulator.junit.SmsWorld;
import dev.smsemulator.junit.TestVectors;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInfo;

/**
 * The module against the image, under podman or Docker (container-suite.sh runs it: {@code -Dgroups=container}): one
 * container for the class, started and stopped with their times printed, a world per test from the kit's
 * {@link Emulator} it hands back, the shared segment vectors through the world's cost call, two worlds isolated on the
 * one container, and the control token required. It fails, never skips, where no container can start.
 */
@Tag("container")
class ContainerSuiteTest {
  static SmsEmulatorContainer container;
  static Emulator emulator;
  SmsWorld sms;

  @BeforeAll
  static void start() {
    container = new SmsEmulatorContainer();
    long began = System.nanoTime();
    container.start();
    System.out.printf("container-suite: %s started in %d ms at %s%n", container.getDockerImageName(), (System.nanoTime() - began) / 1_000_000,
        container.getOrigin());
    emulator = container.emulator();
  }

  @AfterAll
  static void stop() {
    emulator.close();
    long began = System.nanoTime();
    container.stop();
    System.out.printf("container-suite: stopped in %d ms%n", (System.nanoTime() - began) / 1_000_000);
  }

  @BeforeEach
  void world(TestInfo test) {
    sms = new SmsWorld(emulator, test.getDisplayName());
  }

  @AfterEach
  void close() {
    sms.close();
  }

  @Test
  void aWorldOnTheContainerSendsDeliversAndCatchesItsWebhooks() {
    assertTrue(sms.apiBaseUrl.startsWith(container.getApiUrl()), sms.apiBaseUrl);
    String id = sms.client.send(List.of("27831234567"), "Your order PX-1 shipped").id();
    sms.waitFor(id, "delivered");
    sms.assertWebhook(id, "delivered"); // posted from the container to this machine through the gateway
    sms.assertSent("27831234567", "PX-1");
    assertTrue(sms.catcher.url.startsWith("http://" + container.getWebhookHost() + ":"), sms.catcher.url);
  }

  @TestFactory
  @SuppressWarnings("unchecked")
  Stream<DynamicTest> theSegmentVectorsAreCountedThroughTheWorld() {
    List<Map<String, Object>> cases = (List<Map<String, Object>>) ((Map<String, Object>) TestVectors.read("segments.json")).get("cases");
    return cases.stream().map(c -> DynamicTest.dynamicTest((String) c.get("name"), () -> {
      CostExplanation why = sms.assertFitsSegments((String) c.get("text"), ((Number) c.get("segments")).intValue());
      assertEquals(List.of(c.get("encoding"), c.get("units")), List.of(why.encoding(), why.units()), c.get("name") + ": encoding, units");
    }));
  }

  @Test
  void twoWorldsOnOneContainerSeeOnlyTheirOwn() {
    try (SmsWorld other = new SmsWorld(emulator, "the other world")) {
      String mine = sms.client.send(List.of("27831234567"), "mine").id();
      String theirs = other.client.send(List.of("27831234568"), "theirs").id();
      assertEquals(List.of(mine), sms.messages().stream().map(m -> m.id()).toList());
      assertEquals(List.of(theirs), other.messages().stream().map(m -> m.id()).toList());
      other.clock.advance("1h");
      assertNotEquals(sms.now(), other.now(), "each world on its own clock");
      assertNotEquals(sms.apiKey, other.apiKey);
    }
  }

  @Test
  void theControlApiNeedsTheContainersToken() throws Exception {
    HttpResponse<String> without = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(container.getControlUrl() + "/clocks")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(401, without.statusCode(), without.body());
    Emulator wrong = Emulator.at(container.getOrigin(), "not-the-token", container.getWebhookHost(), null);
    assertThrows(ControlException.class, () -> new SmsWorld(wrong, "refused"));
  }
}
