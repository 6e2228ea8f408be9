package dev.smsemulator.junit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The repository's shared test vectors, shipped in the kit's jar ({@code dev/smsemulator/junit/test-vectors/}), so an
 * app's own signer, schedule formatting or webhook parser can be checked against the cases the emulator and every kit
 * pass ({@code signing.json}, {@code schedule.json}, {@code webhooks.json}, ..., each {@code {"description", "cases"}}),
 * and {@code kit-contract.json}: every JSON file of the repository's {@code test-vectors/}, which README.md there
 * describes.
 */
public final class TestVectors {
  private TestVectors() {}

  /**
   * One file, parsed: objects as ordered maps, arrays as lists ({@link Json#parse}).
   *
   * @param name the file's name ({@code signing.json})
   * @return the parsed JSON
   */
  public static Object read(String name) {
    try (InputStream in = TestVectors.class.getResourceAsStream("test-vectors/" + name)) {
      if (in == null) throw new IllegalArgumentException(KitSettings.ERROR_PREFIX + "the kit's jar carries no test-vectors/" + name);
      return Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
