package dev.smsemulator.junit;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a test's world costs the kit: set-up and clean-up, with a send waited to delivered, and the same with the
 * world's webhooks forwarded to the app's own URL (an HTTP server in this JVM answering each post 200 with a short
 * body, as an app does), as medians over many worlds on one emulator. Run after `mvn test`:
 * java -cp target/classes:target/test-classes dev.smsemulator.junit.WorldCost [worlds]
 */
public final class WorldCost {
  public static void main(String[] args) {
    int worlds = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    // What SmsEmulatorExtension does when JUnit loads it, before a test's own server: the JDK's HTTP servers of this JVM
    // answer with TCP_NODELAY (see Catcher.preferNoDelay).
    Catcher.preferNoDelay();
    HttpServer app;
    try {
      app = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    app.createContext("/hooks/sms", exchange -> {
      exchange.getRequestBody().readAllBytes();
      byte[] answer = "{\"received\":true}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    });
    app.start();
    URI appUrl = URI.create("http://127.0.0.1:" + app.getAddress().getPort() + "/hooks/sms");
    try (Emulator emulator = Emulator.start()) {
      List<Double> alone = new ArrayList<>();
      List<Double> withSend = new ArrayList<>();
      List<Double> forwarded = new ArrayList<>();
      for (int i = 0; i < worlds + 50; i++) {
        long began = System.nanoTime();
        new SmsWorld(emulator, "cost " + i).close();
        long middle = System.nanoTime();
        try (SmsWorld world = new SmsWorld(emulator, "cost send " + i)) {
          String id = world.client.send(List.of("27831234567"), "Your appointment is at 10:00").id();
          world.waitFor(id, "delivered");
          world.assertWebhook(id, "delivered");
        }
        long ended = System.nanoTime();
        try (SmsWorld world = SmsWorld.builder().name("cost forwarded " + i).forwardTo(appUrl).create(emulator)) {
          String id = world.client.send(List.of("27831234567"), "Your appointment is at 10:00").id();
          world.waitFor(id, "delivered");
          world.assertWebhook(id, "delivered");
        }
        long last = System.nanoTime();
        if (i >= 50) { // the first ones also warm up both processes (and the JIT)
          alone.add((middle - began) / 1e6);
          withSend.add((ended - middle) / 1e6);
          forwarded.add((last - ended) / 1e6);
        }
      }
      System.out.printf("worlds: %d%nworld alone (set-up and clean-up): %.2f ms%nworld + send + wait for delivered + webhook assertion: %.2f ms%n"
          + "the same, the webhooks forwarded to the app's URL: %.2f ms%n", worlds, median(alone), median(withSend), median(forwarded));
      // The last line: the figures as npm run bench reads them (bench/kitCost.js).
      Resolution.Found found = emulator.found;
      java.util.Map<String, Object> figures = new java.util.LinkedHashMap<>();
      figures.put("kit", "java");
      figures.put("worlds", worlds);
      figures.put("emulator", switch (found.step()) {
        case "carried" -> "the carried runtime (sms-emulator-node " + Carried.classifier() + ") and bundle";
        case "path-node" -> "a node on PATH with the carried bundle";
        case "command" -> "SMS_EMULATOR_COMMAND";
        default -> "SMS_EMULATOR_URL";
      });
      figures.put("worldMs", round(median(alone)));
      figures.put("worldWithSendMs", round(median(withSend)));
      figures.put("worldForwardedMs", round(median(forwarded)));
      System.out.println(Json.write(figures));
    } finally {
      app.stop(0);
    }
  }

  private static double round(double ms) {
    return Math.round(ms * 100) / 100.0;
  }

  private static double median(List<Double> values) {
    Collections.sort(values);
    return values.get(values.size() / 2);
  }
}
