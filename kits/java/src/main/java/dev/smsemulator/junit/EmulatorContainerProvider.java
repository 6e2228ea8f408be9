package dev.smsemulator.junit;

import java.util.Iterator;
import java.util.ServiceLoader;

/**
 * What starts the emulator in a container for {@code @SmsEmulatorTest(container = true)}: the Testcontainers module
 * ({@code dev.smsemulator:sms-emulator-testcontainers}) provides one through {@link ServiceLoader}, so this kit itself
 * needs no Testcontainers on its class path.
 */
public interface EmulatorContainerProvider {
  /** The error when {@code container = true} finds no provider: the artifact to add. */
  String MISSING = KitSettings.ERROR_PREFIX + "@SmsEmulatorTest(container = true) needs the Testcontainers module on the test class path:"
      + " add the test dependency dev.smsemulator:sms-emulator-testcontainers (at this kit's version).";

  /**
   * Starts a container and answers the emulator in it ({@link Emulator#at}); closing that emulator stops the container.
   *
   * @return the emulator in a new container
   */
  Emulator start();

  /** The first provider of {@code providers} started, else {@link #MISSING}. */
  static Emulator startFirst(Iterable<EmulatorContainerProvider> providers) {
    Iterator<EmulatorContainerProvider> found = providers.iterator();
    if (!found.hasNext()) throw new IllegalStateException(MISSING);
    return found.next().start();
  }
}
