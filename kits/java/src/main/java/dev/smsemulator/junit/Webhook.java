package dev.smsemulator.junit;

import java.util.Map;

/**
 * One post the emulator made to a world's catcher, as it arrived: method, headers (names in lower case), the body as
 * sent, and the status the catcher answered the emulator with (the app's own, when the world forwards to the app).
 */
public record Webhook(String method, Map<String, String> headers, String body, int answered) {
  /** The body parsed: a delivery or reply notification. */
  @SuppressWarnings("unchecked")
  public Map<String, Object> json() {
    return (Map<String, Object>) Json.parse(body);
  }

  /** A header by name, any case; null when absent. */
  public String header(String name) {
    return headers.get(name.toLowerCase(java.util.Locale.ROOT));
  }
}
