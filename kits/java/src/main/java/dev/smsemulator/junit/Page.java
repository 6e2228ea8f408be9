package dev.smsemulator.junit;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One page of a control list (an operation the contract marks {@code pages}): its items, how many match in all, the
 * page number and the page size.
 *
 * @param <T> the items' type
 * @param items the page's items
 * @param total how many match in all
 * @param page the page number, from 1
 * @param limit the page size
 */
public record Page<T>(List<T> items, long total, int page, int limit) {
  /** Reads a list answer, {@code {items, total, page, limit}}, each item with {@code item}. */
  static <T> Page<T> read(Object answer, Function<Object, T> item) {
    Map<String, Object> json = Json.asMap(answer);
    return new Page<>(Json.list(json, "items", item), Json.longField(json, "total"), (int) Json.longField(json, "page"),
        (int) Json.longField(json, "limit"));
  }
}
