package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * A world's catcher keeps only what the emulator sent it (issue 40): a post without a valid {@code Webhook-Signature}
 * for the world's webhook secret is answered 401, never counted or forwarded, and reported; a body over the contract's
 * webhook body limit is answered 413 before it is read whole; the emulator's own deliveries are counted.
 */
@SmsEmulatorTest
class CatcherSignatureTest {
  static final String PAYLOAD = "{\"id\":\"forged\",\"status\":\"delivered\",\"recipient\":[\"27831234567\"]}";

  static int post(SmsWorld sms, String body, String signature) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(sms.catcher.url)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (signature != null) request.header("Webhook-Signature", signature);
    return Http.CLIENT.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  static String hmac(String secret, String body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void unsignedAndWronglySignedPostsAreRefused401AndNotCountedWhileTheEmulatorsDeliveriesAre(SmsWorld sms) throws Exception {
    AtomicInteger appCalls = new AtomicInteger();
    sms.forwardTo(webhook -> {
      appCalls.incrementAndGet();
      return WebhookReply.ok();
    });
    assertEquals(401, post(sms, PAYLOAD, null), "unsigned");
    assertEquals(401, post(sms, PAYLOAD, hmac("whsec_not_the_worlds", PAYLOAD)), "signed with another secret");
    assertEquals(401, post(sms, PAYLOAD, hmac(sms.webhookSigningSecret, PAYLOAD + " ")), "another body's signature");
    assertEquals(401, post(sms, PAYLOAD, "not hex"));
    assertEquals(List.of(), sms.received());
    assertEquals(0, appCalls.get(), "a forged post never reaches the app");
    assertEquals(List.of(401, 401, 401, 401), sms.refusedWebhooks().stream().map(Webhook::answered).toList());
    assertEquals(PAYLOAD, sms.refusedWebhooks().get(0).body());

    String id = sms.client.send(List.of("27831234567"), "Your parcel is on its way").id();
    sms.waitFor(id, "delivered");
    sms.assertWebhook(id, "delivered");
    assertTrue(sms.webhooks().stream().noneMatch(payload -> "forged".equals(payload.get("id"))));
    assertEquals(sms.received().size(), appCalls.get(), "every delivery the emulator made reached the app");
    assertEquals(4, sms.catcher.refusedCount());
  }

  @Test
  void theWorldsWebhookSecretIsItsOwnAndSignsItsDeliveries(SmsWorld sms) {
    assertTrue(sms.webhookSigningSecret.startsWith("whsec_"), sms.webhookSigningSecret);
    assertNotEquals(sms.signingSecret, sms.webhookSigningSecret);
    String id = sms.client.send(List.of("27831234567"), "Signed").id();
    sms.waitFor(id, "delivered");
    for (Webhook webhook : sms.received()) {
      try {
        assertEquals(hmac(sms.webhookSigningSecret, webhook.body()), webhook.header("Webhook-Signature"));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }
  }

  @Test
  @WorldSettings(webhookSigningSecret = "whsec_team_secret")
  void aWorldsWebhookSecretByAnnotation(SmsWorld sms) throws Exception {
    assertEquals("whsec_team_secret", sms.webhookSigningSecret);
    assertEquals("whsec_team_secret", sms.account().webhookSigningSecret());
    assertEquals(200, post(sms, PAYLOAD, hmac("whsec_team_secret", PAYLOAD)), "signed with the world's secret: counted");
    assertEquals(1, sms.received().size());
  }

  @Test
  void aBodyOverTheLimitIsRefused413BeforeItIsReadWhole(SmsWorld sms) throws Exception {
    URI url = URI.create(sms.catcher.url);
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), url.getPort())) {
      socket.setSoTimeout(10_000); // a catcher that read the declared gigabyte would never answer: the read times out
      OutputStream out = socket.getOutputStream();
      out.write(("POST " + url.getPath() + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
          + (1L << 30) + "\r\n\r\n{\"id\":").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String status = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
      assertEquals("HTTP/1.1 413", status);
    }
    // Sent without a length (chunked): read up to the limit, no further.
    String big = "x".repeat((int) KitSettings.WEBHOOK_BODY_LIMIT + 1);
    HttpRequest chunked = HttpRequest.newBuilder(url)
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big.getBytes(StandardCharsets.US_ASCII))))
        .header("Webhook-Signature", hmac(sms.webhookSigningSecret, big)).build();
    assertEquals(413, Http.CLIENT.send(chunked, HttpResponse.BodyHandlers.discarding()).statusCode());
    assertEquals(List.of(), sms.received());
    assertEquals(List.of(413, 413), sms.refusedWebhooks().stream().map(Webhook::answered).toList());
    assertEquals("", sms.refusedWebhooks().get(1).body(), "an oversized body is not kept");
  }
}
