package dev.smsemulator.junit;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a parsed JSON answer into one of the kit's records, by the record's own components: a component named
 * {@code creationDate} reads {@code creation_date} too, a {@code long} time in epoch milliseconds or an ISO 8601 text
 * fills an {@link Instant}, and a field the record does not name is left out (the emulator may add fields).
 */
public final class Records {
  private Records() {}

  /** One record (or String, number, Map, List) from a parsed JSON value. */
  @SuppressWarnings("unchecked")
  public static <T> T read(Object json, Class<T> type) {
    return (T) convert(json, type);
  }

  /** A list of records from a parsed JSON array. */
  public static <T> List<T> readList(Object json, Class<T> type) {
    List<T> items = new ArrayList<>();
    if (json instanceof List<?> list) for (Object item : list) items.add(read(item, type));
    return List.copyOf(items);
  }

  private static String snake(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase();
  }

  private static Object convert(Object value, Type type) {
    if (type instanceof ParameterizedType generic) {
      Class<?> raw = (Class<?>) generic.getRawType();
      if (List.class.isAssignableFrom(raw)) {
        Type item = generic.getActualTypeArguments()[0];
        if (!(value instanceof List<?> list)) return value == null ? List.of() : value;
        List<Object> items = new ArrayList<>();
        for (Object each : list) items.add(convert(each, item));
        return java.util.Collections.unmodifiableList(items);
      }
      return value;
    }
    Class<?> target = (Class<?>) type;
    if (target.isRecord()) return value instanceof Map<?, ?> map ? record(map, target) : null;
    if (value == null) {
      if (target == long.class) return 0L;
      if (target == int.class) return 0;
      if (target == double.class) return 0.0;
      if (target == boolean.class) return false;
      return null;
    }
    if (target == String.class) return value instanceof String text ? text : Json.write(value);
    if (target == long.class || target == Long.class) return ((Number) value).longValue();
    if (target == int.class || target == Integer.class) return ((Number) value).intValue();
    if (target == double.class || target == Double.class) return ((Number) value).doubleValue();
    if (target == boolean.class || target == Boolean.class) return value;
    if (target == Instant.class) {
      if (value instanceof Number millis) return Instant.ofEpochMilli(millis.longValue());
      String text = (String) value;
      return text.endsWith("Z") ? Instant.parse(text) : OffsetDateTime.parse(text).toInstant();
    }
    return value;
  }

  private static Object record(Map<?, ?> map, Class<?> type) {
    RecordComponent[] components = type.getRecordComponents();
    Object[] values = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      String name = components[i].getName();
      Object value = map.containsKey(name) ? map.get(name) : map.containsKey(snake(name)) ? map.get(snake(name)) : map.get("_" + snake(name));
      values[i] = convert(value, components[i].getGenericType());
      types[i] = components[i].getType();
    }
    try {
      var constructor = type.getDeclaredConstructor(types);
      constructor.setAccessible(true);
      return constructor.newInstance(values);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read " + type.getSimpleName() + " from " + Json.write(map), e);
    }
  }
}
