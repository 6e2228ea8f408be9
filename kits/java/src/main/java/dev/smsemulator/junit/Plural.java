package dev.smsemulator.junit;

/** A count and its word, singular for one, as the emulator words its own counts ("1 credit", "2 segments"). */
final class Plural {
  private Plural() {}

  static String of(long count, String word) {
    return count + " " + word + (count == 1 ? "" : "s");
  }
}
