package dev.smsemulator.junit;

import java.util.List;

/** One page of a control list: its items, how many match in all, the page number and the page size. */
public record Page<T>(List<T> items, long total, int page, int limit) {}
