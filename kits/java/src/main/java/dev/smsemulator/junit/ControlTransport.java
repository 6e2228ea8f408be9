package dev.smsemulator.junit;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The hand-kept half of {@link Control}: one control request over the kit's HTTP client (the control token, the
 * contract's control timeout, the keep-alive retry of {@link Http}), its error answers as {@link ControlException},
 * and the helpers the generated methods build paths, queries and bodies with.
 */
public abstract class ControlTransport {
  /** The emulator's origin (scheme, host and port), without a trailing slash. */
  public final String origin;
  private final String prefix;
  private final String token;

  /**
   * A transport to the control API at {@code origin + prefix}.
   *
   * @param origin the emulator's origin
   * @param prefix the control API's path ({@link Control#PATH})
   * @param token the control token, or null
   */
  protected ControlTransport(String origin, String prefix, String token) {
    this.origin = origin.replaceAll("/+$", "");
    this.prefix = prefix;
    this.token = token;
  }

  /**
   * One path segment, percent-encoded.
   *
   * @param segment the segment
   * @return it encoded
   */
  public static String quote(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * A query string ({@code ?a=1&b=x}) of the fields given, in their order, null values left out; "" for none.
   *
   * @param fields the query's fields
   * @return the query string
   */
  public static String query(Map<String, ?> fields) {
    if (fields == null || fields.isEmpty()) return "";
    StringJoiner joined = new StringJoiner("&", "?", "");
    fields.forEach((name, value) -> {
      if (value != null) joined.add(quote(name) + "=" + quote(String.valueOf(Json.plain(value))));
    });
    return joined.length() == 1 ? "" : joined.toString();
  }

  /**
   * A duration as the emulator takes it: a Duration becomes milliseconds, text ("1h30m") stays.
   *
   * @param duration a Duration, text or milliseconds
   * @return what the emulator takes
   */
  public static Object duration(Object duration) {
    return Json.plain(duration);
  }

  /**
   * An instant as the emulator takes it: ISO 8601 text.
   *
   * @param instant an Instant or ISO 8601 text
   * @return the text
   */
  public static String instant(Object instant) {
    return instant instanceof Instant at ? at.toString() : (String) instant;
  }

  /**
   * A body of name and value pairs, in order, null values left out.
   *
   * @param pairs name, value, name, value, ...
   * @return the body
   */
  protected static Map<String, Object> fields(Object... pairs) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) if (pairs[i + 1] != null) map.put((String) pairs[i], pairs[i + 1]);
    return map;
  }

  /**
   * One control request: a JSON body (a Map or List; Duration values as milliseconds, Instant ones as ISO 8601 text),
   * YAML or JSON text (a String), or none; answers the parsed JSON or the text. A request that got no answer on a
   * connection closed under it is sent once more (see {@code Http}); one that takes longer than
   * {@link KitSettings#CONTROL_TIMEOUT} fails.
   *
   * @param method the HTTP method
   * @param pathAndQuery the path under the control API, with its query
   * @param body the body, or null
   * @return the parsed answer, or null for none
   */
  public Object call(String method, String pathAndQuery, Object body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(origin + prefix + pathAndQuery)).timeout(KitSettings.CONTROL_TIMEOUT);
    if (token != null && !token.isEmpty()) request.header("Authorization", "Bearer " + token);
    if (body == null) request.method(method, HttpRequest.BodyPublishers.noBody());
    else if (body instanceof String text)
      request.method(method, HttpRequest.BodyPublishers.ofString(text)).header("Content-Type", "application/yaml");
    else request.method(method, HttpRequest.BodyPublishers.ofString(Json.write(body))).header("Content-Type", "application/json");
    HttpResponse<String> answer;
    String what = method + " " + prefix + pathAndQuery;
    try {
      answer = Http.sendRetryingOnce(Http.CLIENT, request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new ControlException(
          "NO_ANSWER", 0, Http.shownUrl(what + ": " + e + " (is the emulator running at " + origin + "?)"), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ControlException("NO_ANSWER", 0, "interrupted", e);
    }
    String text = answer.body();
    boolean json = answer.headers().firstValue("content-type").orElse("").startsWith("application/json");
    Object parsed = text.isEmpty() ? null : json ? Json.parse(text) : text;
    int status = answer.statusCode();
    if (status >= 200 && status < 300) return parsed;
    if (parsed instanceof Map<?, ?> map) {
      Map<?, ?> failure = map.get("error") instanceof Map<?, ?> wrapped ? wrapped : map;
      if (failure.get("message") instanceof String code)
        throw new ControlException(code, status, String.valueOf(failure.get("description")), null);
    }
    throw new ControlException("UNEXPECTED_RESPONSE", status, what + " answered " + status + ": " + text, null);
  }
}
