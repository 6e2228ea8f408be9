package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** runUntilIdle with a limit, and check-receiver from a test. */
@SmsEmulatorTest
class ClockAndReceiverTest {
  @Test
  void runUntilIdleStopsAtItsLimit(SmsWorld sms) {
    sms.client.schedule(List.of("27831234567"), "In six days", sms.now().plus(Duration.ofDays(6)));
    ClockView stopped = sms.clock.runUntilIdle(Duration.ofDays(1));
    assertEquals("limit", stopped.run().stoppedAt());
    assertFalse(stopped.run().idle());
    assertEquals(stopped.now(), sms.now());
    ClockView idle = sms.clock.runUntilIdle("30d");
    assertTrue(idle.run().idle());
    assertEquals("delivered", sms.messages().get(0).status());
  }

  @Test
  void checkReceiverScoresTheAppsReceiver(SmsWorld sms) throws IOException {
    HttpServer app = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
    app.createContext("/hooks", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(exchange.getRequestHeaders().containsKey("Webhook-Signature") ? 200 : 401, -1);
      exchange.close();
    });
    app.start();
    try {
      ReceiverReport report = sms.checkReceiver("http://127.0.0.1:" + app.getAddress().getPort() + "/hooks", "--only", "statuses,duplicate");
      assertEquals(List.of("statuses", "duplicate"), report.checks().stream().map(ReceiverReport.Check::name).toList(), report.toString());
      assertTrue(report.passed(), report.toString());
    } finally {
      app.stop(0);
    }
  }
}
