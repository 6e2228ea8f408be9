package smsemulator.junit;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A signing client for the SMS API (/v1): send, schedule, list, get, edit, delete, balance. */
public class SmsClient {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final String root;
  private final String auth;
  private final String secret;
  /** The offset schedules are written in; the service's zone by default. */
  public String offset = "+02:00";

  public SmsClient(String baseUrl, String apiKey, String signingSecret) {
    this.root = baseUrl.replaceAll("/+$", "") + "/v1/messages";
    this.auth = "Basic " + Base64.getEncoder().encodeToString((apiKey + ":").getBytes(StandardCharsets.UTF_8));
    this.secret = signingSecret;
  }

  /** Sends a message; answers the message object. */
  public Map<String, Object> send(List<String> recipients, String message) {
    return call("POST", "", fields(recipients, message));
  }

  /** Sends with any fields (client_reference, schedule as the API takes it). */
  public Map<String, Object> sendWith(Map<String, Object> fields) {
    return call("POST", "", fields);
  }

  /** Schedules a message for an instant (written in `offset`, rounded up to the minute). */
  public Map<String, Object> schedule(List<String> recipients, String message, Instant at) {
    Map<String, Object> body = fields(recipients, message);
    body.put("schedule", Schedule.format(at, offset));
    return call("POST", "", body);
  }

  public Map<String, Object> get(String id) {
    return call("GET", "/" + URLEncoder.encode(id, StandardCharsets.UTF_8), null);
  }

  /** A page of messages, newest first; the query as the API takes it ("status=delivered&limit=10"), or "". */
  public Map<String, Object> list(String query) {
    return call("GET", query.isEmpty() ? "" : "?" + query, null);
  }

  public Map<String, Object> edit(String id, Map<String, Object> fields) {
    return call("PATCH", "/" + URLEncoder.encode(id, StandardCharsets.UTF_8), fields);
  }

  public Map<String, Object> delete(String id) {
    return call("DELETE", "/" + URLEncoder.encode(id, StandardCharsets.UTF_8), null);
  }

  public long balance() {
    return ((Number) call("GET", "/balance", null).get("balance")).longValue();
  }

  private static Map<String, Object> fields(List<String> recipients, String message) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("recipient", recipients);
    body.put("message", message);
    return body;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> call(String method, String path, Map<String, Object> body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(root + path))
        .timeout(Duration.ofSeconds(30))
        .header("Authorization", auth)
        .header("Accept", "application/json");
    if (body == null) request.method(method, HttpRequest.BodyPublishers.noBody());
    else
      request.method(method, HttpRequest.BodyPublishers.ofString(Json.write(body)))
          .header("Content-Type", "application/json")
          .header("Signature", Signing.sign(body, secret));
    HttpResponse<String> answer;
    try {
      answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new SmsApiException("NETWORK_ERROR", 0, method + " " + root + path + " got no answer: " + e, null, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SmsApiException("NETWORK_ERROR", 0, "interrupted", null, e);
    }
    Object parsed;
    try {
      parsed = answer.body().isEmpty() ? null : Json.parse(answer.body());
    } catch (IllegalArgumentException e) {
      parsed = null;
    }
    Map<String, Object> map = parsed instanceof Map ? (Map<String, Object>) parsed : null;
    int status = answer.statusCode();
    if (status >= 200 && status < 300 && map != null && !map.containsKey("description")) return map;
    Map<String, Object> error = map != null && map.get("error") instanceof Map ? (Map<String, Object>) map.get("error") : map;
    if (error != null && error.get("message") instanceof String code)
      throw new SmsApiException(code, status, String.valueOf(error.get("description")), answer.headers(), null);
    String shown = answer.body().length() > 200 ? answer.body().substring(0, 200) : answer.body();
    throw new SmsApiException("UNEXPECTED_RESPONSE", status, method + " " + root + path + " answered " + status + ": " + shown, answer.headers(), null);
  }
}
