package dev.smsemulator.junit;

import java.util.List;

/** A message as the SMS API answers it (send, get, edit, list items). */
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
    String deliveryDate) {}
