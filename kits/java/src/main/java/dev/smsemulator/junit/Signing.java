package dev.smsemulator.junit;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Request signing as the API specifies it: the canonical field string and its HMAC-SHA256 (test-vectors/signing.json). */
public final class Signing {
  private Signing() {}

  /**
   * RFC 3986 percent-encoding of the UTF-8 bytes: only A-Z a-z 0-9 - . _ ~ stay; a space is %20, never + (URLEncoder
   * would write +, and sign another string than the API).
   */
  public static String encode(String value) {
    StringBuilder out = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~')
        out.append((char) c);
      else out.append('%').append(String.format("%02X", c));
    }
    return out.toString();
  }

  /** A value as the API reads it for signing; null for a blank one, which is left out. */
  private static String fieldText(Object value) {
    if (value == null) return null;
    String text;
    if (value instanceof String s) text = s;
    else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) text = value.toString();
    else if (value instanceof Number n) text = Json.numberText(n);
    else text = Json.write(value);
    return text.isEmpty() ? null : text;
  }

  /** Fields sorted by name, blank values dropped, name[]=value per list item in order, encoded, joined with {@code &}. */
  public static String canonicalString(Map<String, ?> fields) {
    List<String> pairs = new ArrayList<>();
    for (Map.Entry<String, ?> field : new TreeMap<>(fields).entrySet()) {
      String key = encode(field.getKey());
      if (field.getValue() instanceof List<?> list) {
        for (Object item : list) {
          String text = fieldText(item);
          if (text != null) pairs.add(key + "[]=" + encode(text));
        }
      } else {
        String text = fieldText(field.getValue());
        if (text != null) pairs.add(key + "=" + encode(text));
      }
    }
    return String.join("&", pairs);
  }

  /** The Signature header of a request body: lowercase hex HMAC-SHA256 of its canonical string. */
  public static String sign(Map<String, ?> fields, String secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(canonicalString(fields).getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
