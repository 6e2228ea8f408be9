package dev.smsemulator.testcontainers;

import dev.smsemulator.junit.Emulator;
import dev.smsemulator.junit.EmulatorContainerProvider;
import dev.smsemulator.junit.KitSettings;

/**
 * The container behind {@code @SmsEmulatorTest(container = true)}, found by the kit through
 * {@link java.util.ServiceLoader} (META-INF/services): a new {@link SmsEmulatorContainer} of the default image, started
 * when the run first needs it and stopped when the run's emulator is closed. Prints when it started and stopped, and how
 * long each took, as the kit prints the emulator it found.
 */
public final class SmsEmulatorContainerProvider implements EmulatorContainerProvider {
  @Override
  public Emulator start() {
    return start(new SmsEmulatorContainer());
  }

  /**
   * Starts {@code container} as the run's emulator. A start that fails (its health path never answering, a wait that
   * times out) stops and removes what it created, as a failure after the start does: with Ryuk off nothing else would.
   */
  static Emulator start(SmsEmulatorContainer container) {
    long started = System.nanoTime();
    try {
      container.start();
    } catch (RuntimeException e) {
      container.stop();
      throw e;
    }
    System.out.println(KitSettings.ERROR_PREFIX + "container " + container.getDockerImageName() + " started in " + millis(started)
        + " ms at " + container.getOrigin());
    try {
      return container.emulator(() -> {
        long stopping = System.nanoTime();
        container.stop();
        System.out.println(KitSettings.ERROR_PREFIX + "container " + container.getDockerImageName() + " stopped in " + millis(stopping) + " ms");
      });
    } catch (RuntimeException e) {
      container.stop();
      throw e;
    }
  }

  private static long millis(long since) {
    return (System.nanoTime() - since) / 1_000_000;
  }
}
