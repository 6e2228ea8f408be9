package dev.smsemulator.junit;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** Schedule times as the API takes them: YYYY-MM-DDTHH:MM±HH:MM (test-vectors/schedule.json). */
public final class Schedule {
  private static final DateTimeFormatter MINUTES = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm");

  private Schedule() {}

  /** An instant in `offset` ("+02:00"); a time between minutes rounds up, so a message never goes out earlier than asked. */
  public static String format(Instant instant, String offset) {
    Instant minute = instant.truncatedTo(ChronoUnit.MINUTES);
    if (!minute.equals(instant)) minute = minute.plus(1, ChronoUnit.MINUTES);
    return MINUTES.format(minute.atOffset(ZoneOffset.of(offset))) + offset;
  }
}
