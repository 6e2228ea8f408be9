package dev.smsemulator.junit;

import java.util.List;
import java.util.Map;

/**
 * A message as the SMS API answers it (send, get, edit, list items); the API's snake_case names in camelCase.
 *
 * @param id the message's id
 * @param type {@code sms}
 * @param recipient its recipients
 * @param message its text
 * @param clientReference the sender's reference ({@code client_reference}), or null
 * @param schedule when it is scheduled for, or null
 * @param status its status
 * @param credit what it cost
 * @param creationDate when it was made ({@code creation_date})
 * @param deliveryDate when it was delivered ({@code delivery_date}), or null
 */
public record Message(
    String id,
    String type,
    List<String> recipient,
    String message,
    String clientReference,
    String schedule,
    String status,
    long credit,
    String creationDate,
    String deliveryDate) {
  /** Reads the API's answer from its parsed JSON. */
  static Message fromJson(Object value) {
    Map<String, Object> json = Json.asMap(value);
    return new Message(
        Json.field(json, "id", true, Json::asString),
        Json.field(json, "type", false, Json::asString),
        Json.list(json, "recipient", Json::asString),
        Json.field(json, "message", false, Json::asString),
        Json.field(json, "client_reference", false, Json::asString),
        Json.field(json, "schedule", false, Json::asString),
        Json.field(json, "status", false, Json::asString),
        json.get("credit") == null ? 0 : Json.asLong(json.get("credit")),
        Json.field(json, "creation_date", false, Json::asString),
        Json.field(json, "delivery_date", false, Json::asString));
  }
}
