package dev.smsemulator.junit;

import java.util.List;
import java.util.Map;

/** An entry of the webhook log: one event (a delivery or a reply) with every try made of it. */
public record WebhookEvent(
    String id,
    String kind,
    String environment,
    String account,
    String messageId,
    String recipient,
    String status,
    String createdAt,
    String url,
    String state,
    Map<String, Object> payload,
    List<WebhookAttempt> attempts,
    List<String> behaviours) {}
