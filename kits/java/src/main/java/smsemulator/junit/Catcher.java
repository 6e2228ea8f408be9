package smsemulator.junit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * A test's webhook receiver: what it received, and how it answers (200 unless told otherwise). Every test's catcher is
 * a path of its own on one server of the JVM (127.0.0.1, a free port), so a test costs a route, not a server.
 */
public final class Catcher implements AutoCloseable {
  /** One post the emulator made: its headers (names in lower case) and body. */
  public record Caught(Map<String, String> headers, String body) {
    @SuppressWarnings("unchecked")
    public Map<String, Object> json() {
      return (Map<String, Object>) Json.parse(body);
    }
  }

  private static HttpServer server;

  /**
   * The JVM's one receiving server, started on first use. It is started from a daemon thread, so its dispatcher thread
   * (which inherits that) and its worker threads never keep a JVM alive: shared by every run in the JVM, it is never
   * stopped, as it holds nothing once the routes are gone.
   */
  private static synchronized HttpServer server() {
    if (server == null) {
      HttpServer created;
      try {
        created = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      created.setExecutor(Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "sms-emulator-catcher");
        thread.setDaemon(true);
        return thread;
      }));
      Thread starter = new Thread(created::start, "sms-emulator-catcher-start");
      starter.setDaemon(true);
      starter.start();
      try {
        starter.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting the webhook catcher", e);
      }
      server = created;
    }
    return server;
  }

  public final String url;
  private final String path;
  private final List<Caught> received = new ArrayList<>();
  private List<Integer> answers = new ArrayList<>();
  private int always = 200;

  Catcher(String name) {
    path = "/webhooks/" + name;
    HttpServer listening = server();
    listening.createContext(path, this::serve);
    url = "http://127.0.0.1:" + listening.getAddress().getPort() + path;
  }

  private void serve(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Map<String, String> headers = new HashMap<>();
    exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values.get(0)));
    int status;
    synchronized (this) {
      received.add(new Caught(headers, body));
      status = answers.isEmpty() ? always : answers.remove(0);
    }
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }

  /** The statuses answered in turn; the last one then stays (respondWith(500, 200): one failure). */
  public synchronized void respondWith(int... statuses) {
    answers = new ArrayList<>(Arrays.stream(statuses, 0, statuses.length - 1).boxed().toList());
    always = statuses[statuses.length - 1];
  }

  /** Every post so far, in the order it arrived. */
  public synchronized List<Caught> received() {
    return List.copyOf(received);
  }

  /** Removes the test's route; the server stays for the other tests. */
  @Override
  public void close() {
    server().removeContext(path);
  }
}
