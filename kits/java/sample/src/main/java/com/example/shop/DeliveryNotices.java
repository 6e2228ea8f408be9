package com.example.shop;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The shop's delivery notices: one signed SMS per shipped parcel, and a webhook handler that records each outcome. */
public final class DeliveryNotices {
  private static final Pattern FIELD = Pattern.compile("\"(id|status)\"\\s*:\\s*\"([^\"]*)\"");
  private final HttpClient http = HttpClient.newHttpClient();
  private final String apiBaseUrl;
  private final String apiKey;
  private final String signingSecret;
  private final Map<String, String> outcomes = new ConcurrentHashMap<>();
  private volatile int refuseNext;

  public DeliveryNotices(String apiBaseUrl, String apiKey, String signingSecret) {
    this.apiBaseUrl = apiBaseUrl;
    this.apiKey = apiKey;
    this.signingSecret = signingSecret;
  }

  /** Texts the customer that the parcel shipped; answers the message id. */
  public String notifyShipped(String phone, String parcel) throws IOException, InterruptedException {
    String text = "Your parcel " + parcel + " is on its way";
    String body = "{\"recipient\":[\"" + phone + "\"],\"message\":\"" + text + "\"}";
    // The API's signature: HMAC-SHA256 of the fields sorted by name, RFC 3986-encoded, list items as name[]=value.
    String canonical = "message=" + encode(text) + "&recipient[]=" + encode(phone);
    HttpRequest request = HttpRequest.newBuilder(URI.create(apiBaseUrl + "/messages"))
        .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((apiKey + ":").getBytes(StandardCharsets.UTF_8)))
        .header("Content-Type", "application/json")
        .header("Signature", hmac(canonical))
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
    HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() / 100 != 2) throw new IOException("the SMS API answered " + answer.statusCode() + ": " + answer.body());
    return field(answer.body(), "id");
  }

  /** The app's webhook handler: records the message's status and answers 200; 503 while it is told to refuse. */
  public int onWebhook(String body) {
    if (refuseNext > 0) {
      refuseNext--;
      return 503;
    }
    outcomes.put(field(body, "id"), field(body, "status"));
    return 200;
  }

  /** The last status the webhook handler recorded for a message, or null. */
  public String outcomeOf(String messageId) {
    return outcomes.get(messageId);
  }

  /** Makes the handler answer the next posts 503, as during a deploy. */
  public void refuseNext(int posts) {
    refuseNext = posts;
  }

  private static String field(String json, String name) {
    Matcher found = FIELD.matcher(json);
    while (found.find()) if (found.group(1).equals(name)) return found.group(2);
    return null;
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20").replace("*", "%2A").replace("%7E", "~");
  }

  private String hmac(String canonical) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(signingSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(canonical.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
