package smsemulator.junit;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/** The emulator's control API, <origin>/_emulator<path>, as docs/control-api.md documents it: the kit's only door. */
public class Control {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  public final String origin;
  private final String token;

  public Control(String origin, String token) {
    this.origin = origin.replaceAll("/+$", "");
    this.token = token;
  }

  public static String quote(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** One control request: a JSON body (a Map or List), YAML/JSON text (a String), or none; answers the parsed JSON or the text. */
  public Object call(String method, String pathAndQuery, Object body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(origin + "/_emulator" + pathAndQuery)).timeout(Duration.ofSeconds(60));
    if (token != null && !token.isEmpty()) request.header("Authorization", "Bearer " + token);
    if (body == null) request.method(method, HttpRequest.BodyPublishers.noBody());
    else if (body instanceof String text)
      request.method(method, HttpRequest.BodyPublishers.ofString(text)).header("Content-Type", "application/yaml");
    else request.method(method, HttpRequest.BodyPublishers.ofString(Json.write(body))).header("Content-Type", "application/json");
    HttpResponse<String> answer;
    try {
      answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new ControlException("NO_ANSWER", 0, method + " " + pathAndQuery + ": " + e + " (is the emulator running there?)", e);
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
      Object error = map.get("error") instanceof Map<?, ?> wrapped ? wrapped : map;
      Map<?, ?> failure = (Map<?, ?>) error;
      if (failure.get("message") instanceof String code)
        throw new ControlException(code, status, String.valueOf(failure.get("description")), null);
    }
    throw new ControlException("UNEXPECTED_RESPONSE", status, method + " " + pathAndQuery + " answered " + status + ": " + text, null);
  }
}
