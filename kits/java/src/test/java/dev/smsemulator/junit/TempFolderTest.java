package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** An emulator the kit started leaves no temporary folder behind: its ready file and output go when it stops. */
class TempFolderTest {
  @Test
  void stoppingTheEmulatorRemovesItsTemporaryFolder() {
    Resolution.Found found = Resolution.resolve(Resolution.Environment.current());
    assumeTrue(!found.step().equals("url"), "a running emulator (SMS_EMULATOR_URL) has no folder of this run");
    Path folder;
    try (Emulator emulator = Emulator.start(found)) {
      folder = emulator.folder();
      assertTrue(Files.isDirectory(folder), "the ready file's folder exists while the emulator runs");
      assertTrue(folder.getFileName().toString().startsWith("sms-emulator-"), folder.toString());
    }
    assertFalse(Files.exists(folder), folder + " is left behind");
  }
}
