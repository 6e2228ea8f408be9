package dev.smsemulator.junit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;

/**
 * A world's webhook receiver. It keeps a copy of every post, for the world's assertions and waits, and answers it: by
 * default 200 (or the statuses of {@link #respondWith}); once the test gave the app's own handler ({@link #forwardTo})
 * it forwards the post unchanged (method, body bytes, signature headers) and answers with the app's real status and
 * body, so the emulator's retries and checks follow the app. Every world's catcher is a path of its own on one server
 * of the JVM (127.0.0.1, a free port), so a world costs a route, not a server.
 */
public final class Catcher implements AutoCloseable {
  /** The server's listen backlog: a burst of webhooks (100 at once) is queued, not refused. */
  public static final int BACKLOG = 128;
  /** Headers a forward does not copy: they describe the connection, not the post. */
  private static final Set<String> HOP = Set.of("host", "connection", "content-length", "transfer-encoding", "keep-alive", "upgrade", "expect");

  private static HttpServer server;

  /**
   * The JVM's one receiving server, started on first use. It is started from a daemon thread, so its dispatcher thread
   * (which inherits that) and its worker threads never keep a JVM alive: shared by every run in the JVM, it is never
   * stopped, as it holds nothing once the routes are gone.
   */
  static synchronized HttpServer server() {
    if (server == null) {
      HttpServer created;
      try {
        created = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), BACKLOG);
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

  /** The URL the world's account posts its webhooks to. */
  public final String url;
  private final String path;
  private final List<Webhook> received = new ArrayList<>();
  private List<Integer> answers = new ArrayList<>();
  private int always = 200;
  private volatile WebhookHandler app;
  private volatile URI appUrl;

  Catcher(String name) {
    path = "/webhooks/" + name;
    HttpServer listening = server();
    listening.createContext(path, this::serve);
    url = "http://127.0.0.1:" + listening.getAddress().getPort() + path;
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] bytes = exchange.getRequestBody().readAllBytes();
      String method = exchange.getRequestMethod();
      Map<String, String> headers = new LinkedHashMap<>();
      exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
      String body = new String(bytes, StandardCharsets.UTF_8);
      WebhookReply reply;
      WebhookHandler handler = app;
      URI forward = appUrl;
      if (handler != null) reply = callHandler(handler, new Webhook(method, Map.copyOf(headers), body, 0));
      else if (forward != null) reply = post(forward, method, exchange, bytes);
      else {
        synchronized (this) {
          reply = WebhookReply.status(answers.isEmpty() ? always : answers.remove(0));
        }
      }
      synchronized (this) {
        received.add(new Webhook(method, Map.copyOf(headers), body, reply.status()));
      }
      byte[] out = reply.body() == null ? new byte[0] : reply.body().getBytes(StandardCharsets.UTF_8);
      if (reply.contentType() != null) exchange.getResponseHeaders().set("Content-Type", reply.contentType());
      exchange.sendResponseHeaders(reply.status(), out.length == 0 ? -1 : out.length);
      if (out.length > 0) exchange.getResponseBody().write(out);
    }
  }

  private static WebhookReply callHandler(WebhookHandler handler, Webhook webhook) {
    try {
      WebhookReply reply = handler.handle(webhook);
      return reply == null ? WebhookReply.ok() : reply;
    } catch (Exception e) {
      return WebhookReply.of(500, "the app's webhook handler threw " + e);
    }
  }

  /** The post sent on to the app's URL as it came; the app's answer, or 502 naming why none came. */
  private static WebhookReply post(URI target, String method, HttpExchange exchange, byte[] bytes) {
    HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(60))
        .method(method, HttpRequest.BodyPublishers.ofByteArray(bytes));
    exchange.getRequestHeaders().forEach((name, values) -> {
      if (!HOP.contains(name.toLowerCase(Locale.ROOT))) for (String value : values) request.header(name, value);
    });
    try {
      HttpResponse<String> answer = Http.CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new WebhookReply(answer.statusCode(), answer.body(), answer.headers().firstValue("content-type").orElse(null));
    } catch (IOException e) {
      return WebhookReply.of(502, "the app's webhook URL " + target + " did not answer: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return WebhookReply.of(502, "interrupted while forwarding to " + target);
    }
  }

  /** The statuses answered in turn when no app handler is set; the last one then stays (respondWith(500, 200): one failure). */
  public synchronized void respondWith(int... statuses) {
    answers = new ArrayList<>(Arrays.stream(statuses, 0, statuses.length - 1).boxed().toList());
    always = statuses[statuses.length - 1];
  }

  /** Forwards each post to the app's handler in this JVM and answers with its reply; null stops forwarding. */
  public void forwardTo(WebhookHandler handler) {
    this.appUrl = null;
    this.app = handler;
  }

  /** Forwards each post to the app's own webhook URL and answers with the app's answer; null stops forwarding. */
  public void forwardTo(URI url) {
    this.app = null;
    this.appUrl = url;
  }

  /** Every post so far, in the order it arrived. */
  public synchronized List<Webhook> received() {
    return List.copyOf(received);
  }

  /** Removes the world's route; the server stays for the other worlds. */
  @Override
  public void close() {
    server().removeContext(path);
  }
}
