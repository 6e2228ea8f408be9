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
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A world's webhook receiver. It keeps a copy of every post the emulator made to the world, for the world's assertions
 * and waits, and answers it: by default 200 (or the statuses of {@link #respondWith}); once the test gave the app's
 * own handler ({@link #forwardTo}) it forwards the post unchanged (method, body bytes, signature headers) and answers
 * with the app's real status, so the emulator's retries and checks follow the app.
 *
 * <p>It keeps only what the emulator sent (issue 40): a post whose {@code Webhook-Signature} is not the hex
 * HMAC-SHA256 of its raw body with the world's webhook signing secret is answered 401, and a body larger than the
 * contract's {@link KitSettings#WEBHOOK_BODY_LIMIT} 413 without being read whole; neither is counted among the world's
 * webhooks or forwarded, and both are reported ({@link #refused()}, {@link #refusedCount()}).
 *
 * <p>Every world's catcher is a path of its own on one server of the JVM per listening address (127.0.0.1 unless the
 * emulator says another: {@link Emulator#webhookHost}, a free port), so a world costs a route, not a server.
 */
public final class Catcher implements AutoCloseable {
  /** The server's listen backlog: a burst of webhooks (100 at once) is queued, not refused. */
  public static final int BACKLOG = 128;
  /** How many refused posts a catcher keeps to show; {@link #refusedCount()} counts them all. */
  public static final int REFUSED_KEPT = 100;
  /** Headers a forward does not copy: they describe the connection, not the post. */
  private static final Set<String> HOP = Set.of("host", "connection", "content-length", "transfer-encoding", "keep-alive", "upgrade", "expect");
  /** The JDK server's switch for TCP_NODELAY on the connections it accepts: read once, by the JVM's first HttpServer. */
  static final String NO_DELAY_PROPERTY = "sun.net.httpserver.nodelay";

  /**
   * Turns Nagle's algorithm off for the JDK's HTTP servers of this JVM (the catcher's, and an app's own made after it),
   * unless the run chose: the JDK server writes an answer's head and body apart, and with Nagle on the body waits for
   * the peer's delayed acknowledgement of the head, about 40 ms per answer with a body. Read once, when the JVM's
   * first HttpServer is made, so it is set when the kit's classes load (the extension loads this one).
   */
  static void preferNoDelay() {
    if (System.getProperty(NO_DELAY_PROPERTY) == null) System.setProperty(NO_DELAY_PROPERTY, "true");
  }

  static {
    preferNoDelay();
  }

  private static final Map<String, HttpServer> SERVERS = new HashMap<>();

  /**
   * The JVM's one receiving server on {@code host}, started on first use. It is started from a daemon thread, so its
   * dispatcher thread (which inherits that) and its worker threads never keep a JVM alive: shared by every run in the
   * JVM, it is never stopped, as it holds nothing once the routes are gone.
   */
  static synchronized HttpServer server(String host) {
    HttpServer server = SERVERS.get(host);
    if (server == null) {
      HttpServer created;
      try {
        created = HttpServer.create(new InetSocketAddress(InetAddress.getByName(host), 0), BACKLOG);
      } catch (IOException e) {
        throw new UncheckedIOException(KitSettings.ERROR_PREFIX + "the webhook catcher cannot listen on " + host + ": " + e.getMessage(), e);
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
        throw new IllegalStateException(KitSettings.ERROR_PREFIX + "interrupted while starting the webhook catcher", e);
      }
      server = created;
      SERVERS.put(host, created);
    }
    return server;
  }

  /** Where a catcher listens unless the emulator says another address ({@link Emulator#webhookHost}). */
  public static final String LOOPBACK = "127.0.0.1";

  /** The URL the world's account posts its webhooks to. */
  public final String url;
  private final String host;
  private final String path;
  private final List<Webhook> received = new ArrayList<>();
  private final List<Webhook> refused = new ArrayList<>();
  private long refusedCount;
  private List<Integer> answers = new ArrayList<>();
  private int always = 200;
  private volatile Mac signer;
  private volatile WebhookHandler app;
  private volatile URI appUrl;

  Catcher(String name, String host) {
    this.host = host;
    path = "/webhooks/" + name;
    HttpServer listening = server(host);
    listening.createContext(path, this::serve);
    url = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + listening.getAddress().getPort() + path;
  }

  /**
   * The world's webhook signing secret: from now on a post counts only when its {@code Webhook-Signature} is the hex
   * HMAC-SHA256 of its body with it. Until it is given (the world is made after its catcher), every post is refused.
   */
  void verifyWith(String webhookSigningSecret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(webhookSigningSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      signer = mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(KitSettings.ERROR_PREFIX + "HmacSHA256 is missing from this JVM", e);
    }
  }

  /** Whether the signature is the body's for the world's secret; compared in constant time. */
  private boolean signed(byte[] body, String signature) {
    Mac template = signer;
    if (template == null || signature == null) return false;
    byte[] expected;
    try {
      Mac mac = (Mac) template.clone();
      expected = mac.doFinal(body);
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException(e);
    }
    byte[] given;
    try {
      given = HexFormat.of().parseHex(signature.trim().toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException notHex) {
      return false;
    }
    return MessageDigest.isEqual(expected, given);
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      Map<String, String> headers = new LinkedHashMap<>();
      exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
      long declared = declaredLength(headers.get("content-length"));
      byte[] bytes = declared > KitSettings.WEBHOOK_BODY_LIMIT ? null : exchange.getRequestBody().readNBytes((int) KitSettings.WEBHOOK_BODY_LIMIT + 1);
      if (bytes == null || bytes.length > KitSettings.WEBHOOK_BODY_LIMIT) {
        // Not read further: the server drains a little and then closes the connection.
        refuse(new Webhook(method, Map.copyOf(headers), "", 413));
        exchange.sendResponseHeaders(413, -1);
        return;
      }
      String body = new String(bytes, StandardCharsets.UTF_8);
      if (!signed(bytes, headers.get("webhook-signature"))) {
        refuse(new Webhook(method, Map.copyOf(headers), body, 401));
        exchange.sendResponseHeaders(401, -1);
        return;
      }
      int status;
      WebhookHandler handler = app;
      URI forward = appUrl;
      if (handler != null) status = callHandler(handler, new Webhook(method, Map.copyOf(headers), body, 0));
      else if (forward != null) status = post(forward, method, exchange, bytes);
      else {
        synchronized (this) {
          status = answers.isEmpty() ? always : answers.remove(0);
        }
      }
      synchronized (this) {
        received.add(new Webhook(method, Map.copyOf(headers), body, status));
      }
      // The status alone, in one write: the emulator reads no webhook answer's body, and an answer's head and body
      // written apart wait on the emulator's delayed acknowledgement when Nagle's algorithm is on.
      exchange.sendResponseHeaders(status, -1);
    }
  }

  /** Content-Length as a number; -1 when absent (a chunked post is then read up to the limit); too large when unreadable. */
  private static long declaredLength(String header) {
    if (header == null) return -1;
    try {
      return Long.parseLong(header.trim());
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  private synchronized void refuse(Webhook post) {
    refusedCount++;
    if (refused.size() < REFUSED_KEPT) refused.add(post);
  }

  private static int callHandler(WebhookHandler handler, Webhook webhook) {
    try {
      WebhookReply reply = handler.handle(webhook);
      return reply == null ? 200 : reply.status();
    } catch (Exception e) {
      return 500;
    }
  }

  /** The post sent on to the app's URL as it came; the app's status, or 502 when none came. */
  private static int post(URI target, String method, HttpExchange exchange, byte[] bytes) {
    HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(60))
        .method(method, HttpRequest.BodyPublishers.ofByteArray(bytes));
    exchange.getRequestHeaders().forEach((name, values) -> {
      if (!HOP.contains(name.toLowerCase(Locale.ROOT))) for (String value : values) request.header(name, value);
    });
    try {
      return Http.CLIENT.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return 502;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 502;
    }
  }

  /**
   * The statuses answered in turn when no app handler is set; the last one then stays (respondWith(500, 200): one
   * failure).
   *
   * @param statuses the statuses, in turn
   */
  public synchronized void respondWith(int... statuses) {
    answers = new ArrayList<>(Arrays.stream(statuses, 0, statuses.length - 1).boxed().toList());
    always = statuses[statuses.length - 1];
  }

  /**
   * Forwards each verified post to the app's handler in this JVM and answers with its reply's status; null stops
   * forwarding.
   *
   * @param handler the app's handler, or null
   */
  public void forwardTo(WebhookHandler handler) {
    this.appUrl = null;
    this.app = handler;
  }

  /**
   * Forwards each verified post to the app's own webhook URL and answers with the app's status; null stops forwarding.
   *
   * @param url the app's webhook URL, or null
   */
  public void forwardTo(URI url) {
    this.app = null;
    this.appUrl = url;
  }

  /**
   * Every post the emulator made, verified, in the order it arrived.
   *
   * @return the posts
   */
  public synchronized List<Webhook> received() {
    return List.copyOf(received);
  }

  /**
   * The posts refused (401: no valid signature for the world's secret; 413: larger than the limit, body not kept), the
   * first {@value #REFUSED_KEPT}, in the order they came.
   *
   * @return the refused posts, each with the status it was answered
   */
  public synchronized List<Webhook> refused() {
    return List.copyOf(refused);
  }

  /**
   * How many posts were refused in all.
   *
   * @return the count
   */
  public synchronized long refusedCount() {
    return refusedCount;
  }

  /** Removes the world's route; the server stays for the other worlds. */
  @Override
  public void close() {
    server(host).removeContext(path);
  }
}
