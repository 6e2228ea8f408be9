package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * {@code @SmsEmulatorTest(container = true)}: the worlds come from the emulator an {@link EmulatorContainerProvider}
 * starts (this test's stand-in, registered in src/test/resources/META-INF/services, reaches the run's emulator through
 * {@link Emulator#at}, as the Testcontainers module reaches its container, its webhooks posted to the address it
 * names), started once for the run and closed when the run ends; without a provider, one error names the artifact to
 * add.
 */
@Isolated("counts the stand-in provider's starts and closes")
class ContainerSwitchTest {
  static final AtomicInteger STARTS = new AtomicInteger();
  static final AtomicInteger CLOSES = new AtomicInteger();
  static final Set<String> ORIGINS = ConcurrentHashMap.newKeySet();
  static volatile String startedOrigin;

  /** The stand-in for the module's provider: the run's emulator, reached at its URL, its closing counted. */
  public static final class FakeContainer implements EmulatorContainerProvider {
    @Override
    public Emulator start() {
      STARTS.incrementAndGet();
      Emulator inner = Emulator.start();
      startedOrigin = inner.origin;
      // A container's emulator posts to its network's gateway; this one, on this machine, to another loopback address.
      return Emulator.at(inner.origin, System.getenv("SMS_EMULATOR_CONTROL_TOKEN"), "127.0.0.2", () -> {
        CLOSES.incrementAndGet();
        inner.close();
      });
    }
  }

  @SmsEmulatorTest(container = true)
  @EnabledIfSystemProperty(named = "smsemu.container-inner", matches = "true")
  static class InnerOnContainer {
    @Test
    void one(SmsWorld sms, Emulator emulator) {
      ORIGINS.add(emulator.origin);
      assertTrue(sms.catcher.url.startsWith("http://127.0.0.2:"), sms.catcher.url);
      String id = sms.client.send(List.of("27831234567"), "Your order shipped").id();
      sms.waitFor(id, "delivered");
      sms.assertWebhook(id, "delivered"); // caught where the emulator was told to post
    }

    @Test
    void two(SmsWorld sms, Emulator emulator) {
      ORIGINS.add(emulator.origin);
      assertEquals(0, sms.messages().size());
    }
  }

  @Test
  void containerTrueTakesTheRunsWorldsFromTheProvidersEmulatorAndClosesItWhenTheRunEnds() {
    STARTS.set(0);
    CLOSES.set(0);
    ORIGINS.clear();
    System.setProperty("smsemu.container-inner", "true");
    try {
      EngineTestKit.engine("junit-jupiter").selectors(selectClass(InnerOnContainer.class)).execute().testEvents()
          .assertStatistics(stats -> stats.succeeded(2).failed(0));
    } finally {
      System.clearProperty("smsemu.container-inner");
    }
    assertEquals(1, STARTS.get(), "one container for the run");
    assertEquals(Set.of(startedOrigin), ORIGINS, "both tests' worlds on the provider's emulator");
    assertEquals(1, CLOSES.get(), "stopped when the run ended");
  }

  @Test
  void withoutTheModuleContainerTrueNamesTheArtifactToAdd() {
    IllegalStateException missing = assertThrows(IllegalStateException.class, () -> EmulatorContainerProvider.startFirst(List.of()));
    assertEquals(EmulatorContainerProvider.MISSING, missing.getMessage());
    assertNotEquals(-1, missing.getMessage().indexOf("dev.smsemulator:sms-emulator-testcontainers"));
  }

  @Test
  void anEmulatorAtAUrlClosesItsOwnerAndNotTheEmulator() throws Exception {
    try (Emulator running = Emulator.start()) {
      AtomicInteger closed = new AtomicInteger();
      Emulator reached = Emulator.at(running.origin, System.getenv("SMS_EMULATOR_CONTROL_TOKEN"), Catcher.LOOPBACK, closed::incrementAndGet);
      assertEquals(running.origin, reached.origin);
      assertEquals("url", reached.found.step());
      reached.close();
      assertEquals(1, closed.get());
      Emulator.checkIsEmulator(running.control); // still answering
    }
  }
}
