package dev.smsemulator.junit;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The small JSON reader and writer the kit needs: objects as ordered maps, arrays as lists, numbers as Long or Double;
 * a {@link Duration} is written as milliseconds and an {@link Instant} as ISO 8601 text, as the emulator takes them.
 * The package's readers of parsed values ({@code asMap}, {@code field}, ...) are what the generated answer records
 * read their JSON with.
 */
public final class Json {
  private final String text;
  private int at;

  private Json(String text) {
    this.text = text;
  }

  /** Parses one JSON value. */
  public static Object parse(String text) {
    Json json = new Json(text);
    json.space();
    Object value = json.value();
    json.space();
    if (json.at != text.length()) throw json.error("text after the value");
    return value;
  }

  /** Writes a value: Map, List, String, Number, Boolean, Duration, Instant or null. */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) out.append("null");
    else if (value instanceof Duration || value instanceof Instant) write(plain(value), out);
    else if (value instanceof String s) quote(s, out);
    else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) out.append(value);
    else if (value instanceof Number n) out.append(numberText(n));
    else if (value instanceof Map<?, ?> map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!first) out.append(',');
        first = false;
        quote(String.valueOf(entry.getKey()), out);
        out.append(':');
        write(entry.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) out.append(',');
        write(list.get(i), out);
      }
      out.append(']');
    } else throw new IllegalArgumentException("not a JSON value: " + value.getClass());
  }

  /** A java.time value as the emulator takes it (a Duration as milliseconds, an Instant as ISO 8601 text); else the value. */
  static Object plain(Object value) {
    if (value instanceof Duration duration) return duration.toMillis();
    if (value instanceof Instant instant) return instant.toString();
    return value;
  }

  // ---- readers of parsed values, for the answer records

  /** A parsed JSON object. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> asMap(Object value) {
    if (value instanceof Map<?, ?> map) return (Map<String, Object>) map;
    throw new IllegalStateException(KitSettings.ERROR_PREFIX + "expected a JSON object in the answer, got " + write(value));
  }

  static String asString(Object value) {
    if (value instanceof String text) return text;
    throw new IllegalStateException(KitSettings.ERROR_PREFIX + "expected a string in the answer, got " + write(value));
  }

  static Long asLong(Object value) {
    if (value instanceof Number number) return number.longValue();
    throw new IllegalStateException(KitSettings.ERROR_PREFIX + "expected an integer in the answer, got " + write(value));
  }

  static Double asDouble(Object value) {
    if (value instanceof Number number) return number.doubleValue();
    throw new IllegalStateException(KitSettings.ERROR_PREFIX + "expected a number in the answer, got " + write(value));
  }

  static Boolean asBoolean(Object value) {
    if (value instanceof Boolean flag) return flag;
    throw new IllegalStateException(KitSettings.ERROR_PREFIX + "expected true or false in the answer, got " + write(value));
  }

  /** An instant from epoch milliseconds. */
  static Instant asInstant(Object value) {
    return Instant.ofEpochMilli(asLong(value));
  }

  /** A parsed array, each item read with {@code item}, unmodifiable. */
  static <T> List<T> asList(Object value, Function<Object, T> item) {
    if (!(value instanceof List<?> list)) throw new IllegalStateException(KitSettings.ERROR_PREFIX + "expected an array in the answer, got " + write(value));
    List<T> items = new ArrayList<>(list.size());
    for (Object each : list) items.add(each == null ? null : item.apply(each));
    return java.util.Collections.unmodifiableList(items);
  }

  /** A field read with {@code read}; null when absent or null, unless {@code required}, when that is an error. */
  static <T> T field(Map<String, Object> json, String name, boolean required, Function<Object, T> read) {
    Object value = json.get(name);
    if (value != null) return read.apply(value);
    if (required) throw new IllegalStateException(KitSettings.ERROR_PREFIX + "the answer lacks its required field " + name + ": " + write(json));
    return null;
  }

  /** An array field, each item read with {@code item}; empty when absent. */
  static <T> List<T> list(Map<String, Object> json, String name, Function<Object, T> item) {
    Object value = json.get(name);
    return value == null ? List.of() : asList(value, item);
  }

  static long longField(Map<String, Object> json, String name) {
    return field(json, name, true, Json::asLong);
  }

  static double doubleField(Map<String, Object> json, String name) {
    return field(json, name, true, Json::asDouble);
  }

  static boolean booleanField(Map<String, Object> json, String name) {
    return field(json, name, true, Json::asBoolean);
  }

  /** A number as JSON (and JavaScript's String()) writes it: 3, 1.5, no trailing .0. */
  static String numberText(Number number) {
    double value = number.doubleValue();
    if (value == Math.rint(value) && !Double.isInfinite(value) && Math.abs(value) < 1e15) return Long.toString((long) value);
    return Double.toString(value);
  }

  private static void quote(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    out.append('"');
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("invalid JSON at " + at + ": " + what);
  }

  private void space() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
  }

  private Object value() {
    if (at >= text.length()) throw error("end of text");
    char c = text.charAt(at);
    switch (c) {
      case '{': return object();
      case '[': return array();
      case '"': return string();
      case 't': return literal("true", Boolean.TRUE);
      case 'f': return literal("false", Boolean.FALSE);
      case 'n': return literal("null", null);
      default: return number();
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, at)) throw error("expected " + word);
    at += word.length();
    return value;
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    at++;
    space();
    if (text.charAt(at) == '}') {
      at++;
      return map;
    }
    while (true) {
      space();
      String key = string();
      space();
      if (text.charAt(at++) != ':') throw error("expected :");
      space();
      map.put(key, value());
      space();
      char next = text.charAt(at++);
      if (next == '}') return map;
      if (next != ',') throw error("expected , or }");
    }
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    at++;
    space();
    if (text.charAt(at) == ']') {
      at++;
      return list;
    }
    while (true) {
      space();
      list.add(value());
      space();
      char next = text.charAt(at++);
      if (next == ']') return list;
      if (next != ',') throw error("expected , or ]");
    }
  }

  private String string() {
    if (text.charAt(at) != '"') throw error("expected a string");
    at++;
    StringBuilder out = new StringBuilder();
    while (true) {
      char c = text.charAt(at++);
      if (c == '"') return out.toString();
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char escaped = text.charAt(at++);
      switch (escaped) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          at += 4;
        }
        default -> out.append(escaped);
      }
    }
  }

  private Number number() {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
    String digits = text.substring(start, at);
    if (digits.isEmpty()) throw error("unexpected character");
    if (digits.contains(".") || digits.contains("e") || digits.contains("E")) return Double.parseDouble(digits);
    return Long.parseLong(digits);
  }
}
