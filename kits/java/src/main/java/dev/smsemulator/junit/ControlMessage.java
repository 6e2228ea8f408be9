package dev.smsemulator.junit;

import java.util.List;

/** A message as the control API shows it: the API's fields plus environment, account, legs and history. */
public record ControlMessage(
    String id,
    String type,
    String environment,
    String account,
    List<String> recipient,
    String message,
    int segments,
    String encoding,
    String ucs2Trigger,
    String clientReference,
    String schedule,
    String status,
    long credit,
    String creationDate,
    String deliveryDate,
    String deletedAt,
    String inReplyTo,
    List<StatusChange> history,
    List<Leg> legs) {}
