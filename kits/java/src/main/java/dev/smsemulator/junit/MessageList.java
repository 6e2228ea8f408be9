package dev.smsemulator.junit;

import java.util.List;
import java.util.Map;

/**
 * A page of the SMS API's message list: the messages, the page, its size, and the totals.
 *
 * @param list the page's messages
 * @param page the page number
 * @param limit the page size
 * @param totalPages how many pages
 * @param totalItems how many messages
 */
public record MessageList(List<Message> list, int page, int limit, int totalPages, int totalItems) {
  /** Reads the API's answer from its parsed JSON ({@code total_pages}, {@code total_items}). */
  static MessageList fromJson(Object value) {
    Map<String, Object> json = Json.asMap(value);
    return new MessageList(Json.list(json, "list", Message::fromJson), number(json, "page"), number(json, "limit"),
        number(json, "total_pages"), number(json, "total_items"));
  }

  private static int number(Map<String, Object> json, String name) {
    Object value = json.get(name);
    return value == null ? 0 : Json.asLong(value).intValue();
  }
}
