package dev.smsemulator.testcontainers;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.smsemulator.junit.KitSettings;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.utility.DockerImageName;

/** The provider behind {@code @SmsEmulatorTest(container = true)}, with no Docker: what it does when a start fails. */
class SmsEmulatorContainerProviderTest {
  /** A container whose start fails as a wait that timed out does, after Testcontainers created it. */
  static final class FailsToStart extends SmsEmulatorContainer {
    final ContainerLaunchException failure = new ContainerLaunchException("Container startup failed: timed out waiting");
    boolean stopped;

    FailsToStart() {
      super(DockerImageName.parse(KitSettings.Container.IMAGE));
    }

    @Override
    public void start() {
      throw failure;
    }

    @Override
    public void stop() {
      stopped = true;
    }
  }

  @Test
  void aContainerThatFailsToStartIsStoppedAndRemovedNotLeftRunning() {
    FailsToStart container = new FailsToStart();
    assertSame(container.failure, assertThrows(ContainerLaunchException.class, () -> SmsEmulatorContainerProvider.start(container)));
    assertTrue(container.stopped, "the container that failed to start was left to Ryuk, which is off in CI");
  }
}
