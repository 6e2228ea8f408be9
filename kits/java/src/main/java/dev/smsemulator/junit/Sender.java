package dev.smsemulator.junit;

/**
 * The number an inbound reply comes from, for {@link SmsWorld#reply(String, String, Sender)}: a type of its own, so a
 * sender can never be taken for the reply's text (the kit's old {@code reply(id, from, text)} took the sender first,
 * and {@code reply(id, "Yes", null)} sent from the number "Yes").
 *
 * @param number the sender's number, as the API writes recipients ({@code 27831234567})
 */
public record Sender(String number) {
  /**
   * A sender.
   *
   * @param number the sender's number
   * @return the sender
   */
  public static Sender of(String number) {
    return new Sender(number);
  }
}
