package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The kit's keep-alive agreement with the emulator, which closes a connection idle for 5 s: a control request that
 * fails on a connection closed under it before any answer is sent once more, the JDK's pool drops idle connections
 * before the emulator does, and two worlds made with the emulator's keep-alive timeout idled between them both work.
 */
@Isolated("idles the JVM's connections to the emulator: no other test may use them meanwhile")
@SmsEmulatorTest
class KeepAliveTest {
  /**
   * A server that answers a connection's first request and keeps it open, then reads the next request on it and closes
   * it without answering (as the emulator does when its idle timeout ends just as a request is sent); every other
   * connection answers each request.
   */
  static final class ClosesUnderTheSecondRequest implements AutoCloseable {
    final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    final List<String> seen = Collections.synchronizedList(new ArrayList<>());
    private final Thread acceptor;

    ClosesUnderTheSecondRequest() throws IOException {
      acceptor = new Thread(this::accept, "closes-under-the-second-request");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    private void accept() {
      for (int connection = 1; !socket.isClosed(); connection++) {
        try (Socket client = socket.accept()) {
          InputStream in = client.getInputStream();
          OutputStream out = client.getOutputStream();
          for (int request = 1; readRequest(in); request++) {
            seen.add(connection + "." + request);
            if (connection == 1 && request == 2) break; // closed under the request: no answer
            byte[] body = "{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8);
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
          }
        } catch (IOException e) {
          return;
        }
      }
    }

    /** Reads one request (head and a Content-Length body); false at the end of the connection. */
    private static boolean readRequest(InputStream in) throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int last = 0;
      while (last != 0x0d0a0d0a) {
        int b = in.read();
        if (b < 0) return false;
        head.write(b);
        last = (last << 8) | b;
      }
      long length = 0;
      for (String line : head.toString(StandardCharsets.US_ASCII).split("\r\n"))
        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) length = Long.parseLong(line.substring(15).trim());
      in.readNBytes((int) length);
      return true;
    }

    String origin() {
      return "http://127.0.0.1:" + socket.getLocalPort();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  @Test
  void aControlRequestClosedUnderItBeforeAnyAnswerIsSentAgain() throws IOException {
    try (ClosesUnderTheSecondRequest server = new ClosesUnderTheSecondRequest()) {
      Control control = new Control(server.origin(), null);
      assertEquals("ok", control.health().status());
      // A POST, as POST /_emulator/worlds was: the JDK sends an idempotent GET again by itself, never a POST.
      assertEquals("ok", control.webhooksSettled(null).status());
      assertEquals(List.of("1.1", "1.2", "2.1"), server.seen, "the second request went out on the kept connection, was dropped, and was sent again");
    }
  }

  @Test
  void aRefusedConnectionOrATimeoutIsNotSentAgain() {
    assertFalse(Http.unanswered(new ConnectException("refused")));
    assertFalse(Http.unanswered(new HttpTimeoutException("timed out")));
    assertTrue(Http.unanswered(new IOException("HTTP/1.1 header parser received no bytes")));
  }

  @Test
  void theJdksPoolDropsIdleConnectionsBeforeTheEmulatorDoes() {
    assertTrue(Http.CLIENT != null);
    assertTrue(Integer.parseInt(System.getProperty(Http.KEEP_ALIVE_PROPERTY)) < 5, System.getProperty(Http.KEEP_ALIVE_PROPERTY));
  }

  @Test
  void twoWorldsWithTheEmulatorsKeepAliveTimeoutIdledBetweenThemBothWork(Emulator emulator) throws InterruptedException {
    try (SmsWorld first = new SmsWorld(emulator, "before idling")) {
      first.client.send(List.of("27831234567"), "Before");
    }
    // The emulator closes a connection idle for 5 s (its keep-alive timeout, not an option); the test has to idle past
    // it for real, once, with the JVM's connections unused meanwhile (@Isolated).
    Thread.sleep(5_300);
    try (SmsWorld second = new SmsWorld(emulator, "after idling")) {
      String id = second.client.send(List.of("27831234567"), "After").id();
      second.waitFor(id, "delivered");
      second.assertWebhook(id, "delivered");
    }
  }
}
