package dev.smsemulator.junit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A signing client for the SMS API of one environment ({@code /v1} live, {@code /sandbox/v1} sandbox): send,
 * schedule, list, get, edit, delete, balance. Answers are {@link Message} records; an error answer throws
 * {@link SmsApiException}. It models the app's own client, so it never retries: a network fault a scenario injects
 * reaches the test as {@code NETWORK_ERROR}.
 */
public class SmsClient {
  /** The API's path per environment (kit-contract {@code paths.api}). */
  public static final Map<String, String> API_PATHS = Map.of("live", "/v1", "sandbox", "/sandbox/v1");

  private final String root;
  private final String auth;
  private final String secret;
  /** The environment this client talks to: live or sandbox. */
  public final String environment;
  /** The offset schedules are written in; the service's zone by default. */
  public String offset = "+02:00";

  /** A live client. */
  public SmsClient(String origin, String apiKey, String signingSecret) {
    this(origin, apiKey, signingSecret, "live");
  }

  /** A client of {@code environment} ("live" or "sandbox") at the emulator's origin. */
  public SmsClient(String origin, String apiKey, String signingSecret, String environment) {
    String base = API_PATHS.get(environment);
    if (base == null) throw new IllegalArgumentException("environment must be live or sandbox, not " + environment);
    this.environment = environment;
    this.root = origin.replaceAll("/+$", "") + base + "/messages";
    this.auth = "Basic " + Base64.getEncoder().encodeToString((apiKey + ":").getBytes(StandardCharsets.UTF_8));
    this.secret = signingSecret;
  }

  /** The base URL the app under test would use for this environment ({@code <origin>/v1} or {@code <origin>/sandbox/v1}). */
  public String baseUrl() {
    return root.substring(0, root.length() - "/messages".length());
  }

  /** Sends a message to the recipients. */
  public Message send(List<String> recipients, String message) {
    return Message.fromJson(call("POST", "", fields(recipients, message)));
  }

  /** Sends with any fields as the API takes them ({@code client_reference}, {@code schedule}, …). */
  public Message sendWith(Map<String, Object> fields) {
    return Message.fromJson(call("POST", "", fields));
  }

  /** Schedules a message for an instant (written in {@link #offset}, rounded up to the minute). */
  public Message schedule(List<String> recipients, String message, Instant at) {
    Map<String, Object> body = fields(recipients, message);
    body.put("schedule", Schedule.format(at, offset));
    return Message.fromJson(call("POST", "", body));
  }

  /** One message by id. */
  public Message get(String id) {
    return Message.fromJson(call("GET", "/" + Control.quote(id), null));
  }

  /** A page of messages, newest first; the query as the API takes it ({@code "status=delivered&limit=10"}), or "". */
  public MessageList list(String query) {
    return MessageList.fromJson(call("GET", query.isEmpty() ? "" : "?" + query, null));
  }

  /** Edits a scheduled message ({@code message}, {@code schedule}). */
  public Message edit(String id, Map<String, Object> fields) {
    return Message.fromJson(call("PATCH", "/" + Control.quote(id), fields));
  }

  /** Deletes (cancels) a scheduled message. */
  public Message delete(String id) {
    return Message.fromJson(call("DELETE", "/" + Control.quote(id), null));
  }

  /** The account's credit balance in this environment. */
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
      answer = Http.CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
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
