package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
 * {@link Emulator#at}, as the Testcontainers module reaches its container), started once for the run and closed when
 * the run ends; without a provider, one error names the artifact to add.
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
      return Emulator.at(inner.origin, System.getenv("SMS_EMULATOR_CONTROL_TOKEN"), () -> {
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
      assertEquals(0, sms.messages().size());
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
      Emulator reached = Emulator.at(running.origin, System.getenv("SMS_EMULATOR_CONTROL_TOKEN"), closed::incrementAndGet);
      assertEquals(running.origin, reached.origin);
      assertEquals("url", reached.found.step());
      reached.close();
      assertEquals(1, closed.get());
      Emulator.checkIsEmulator(running.control); // still answering
    }
  }
}
