package dev.smsemulator.junit;

import java.util.List;

/** A page of the SMS API's message list: the messages, the page, its size, and the totals. */
public record MessageList(List<Message> list, int page, int limit, int totalPages, int totalItems) {}
