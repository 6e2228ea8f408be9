package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The catcher's listen backlog is 128, so a burst of webhooks (check-receiver's 100 at once) is queued, not refused or
 * retried by the sender: read from the kernel's own view of the listening socket ({@code ss}, Linux).
 */
class CatcherBacklogTest {
  @Test
  void theCatchersListenBacklogIs128() throws Exception {
    assumeTrue(System.getProperty("os.name").startsWith("Linux") && Files.isExecutable(Path.of("/usr/bin/ss")), "needs Linux's ss");
    int port = Catcher.server(Catcher.LOOPBACK).getAddress().getPort();
    Process ss = new ProcessBuilder("/usr/bin/ss", "-ltnH", "sport = :" + port).redirectErrorStream(true).start();
    String line = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    ss.waitFor();
    // LISTEN <queued> <backlog> 127.0.0.1:<port> ...
    String[] fields = line.split("\\s+");
    assertEquals("LISTEN", fields[0], line);
    assertEquals(Catcher.BACKLOG, Integer.parseInt(fields[2]), line);
    assertEquals(128, Catcher.BACKLOG);
  }
}
