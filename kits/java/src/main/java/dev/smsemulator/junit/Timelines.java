package dev.smsemulator.junit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/**
 * Where a failing test's timeline goes: a folder of the run's own under the build's folder ({@code target/} for Maven,
 * {@code build/} for Gradle), so runs never overwrite each other, and a file named by the kit contract's rule
 * (test-vectors/kit-contract.json {@code timeline}).
 */
public final class Timelines {
  /** The longest file name (kit contract {@code timeline.maxLength}). */
  public static final int MAX_LENGTH = 100;
  private static final String PREFIX = "sms-emulator-timeline-";
  private static final String SUFFIX = ".html";
  /** This JVM's run: its start time and process id. */
  private static final String RUN = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").format(ZonedDateTime.now(ZoneOffset.UTC))
      + "-" + ProcessHandle.current().pid();

  private Timelines() {}

  /** Hex digits of the id's SHA-256 in a shortened name (kit contract {@code timeline.hashLength}). */
  public static final int HASH_LENGTH = 8;

  /**
   * The file name of a test's timeline (the kit contract's {@code timeline.rule}): its id with every unsafe run as one
   * _, when that fits {@value #MAX_LENGTH}; else {@code <front>-<hash>-<name>}, the test's own name (after the last
   * {@code ::} or {@code /} outside square brackets) whole, the first {@value #HASH_LENGTH} hex digits of the id's
   * SHA-256, and as much of the id's start as fits.
   */
  public static String fileName(String testId) {
    String whole = safe(testId);
    int room = MAX_LENGTH - PREFIX.length() - SUFFIX.length();
    if (whole.length() <= room) return PREFIX + whole + SUFFIX;
    String hash;
    try {
      hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(testId.getBytes(StandardCharsets.UTF_8)))
          .substring(0, HASH_LENGTH);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    int start = nameStart(testId);
    String name = cut(safe(testId.substring(start)), room - hash.length() - 1);
    String front = cut(safe(testId.substring(0, start)), Math.max(0, room - hash.length() - 2 - name.length()));
    return PREFIX + (front.isEmpty() ? "" : front + "-") + hash + "-" + name + SUFFIX;
  }

  private static String safe(String text) {
    return text.replaceAll("[^A-Za-z0-9_.-]+", "_");
  }

  private static String cut(String text, int length) {
    return text.length() <= length ? text : text.substring(0, length);
  }

  /** Where the test's own name starts: after the last {@code ::} or {@code /} outside square brackets. */
  private static int nameStart(String testId) {
    int depth = 0;
    int start = 0;
    for (int index = 0; index < testId.length(); index++) {
      char c = testId.charAt(index);
      if (c == '[') depth++;
      else if (c == ']') depth = Math.max(0, depth - 1);
      else if (depth == 0 && c == '/') start = index + 1;
      else if (depth == 0 && testId.startsWith("::", index)) start = index + 2;
    }
    return start;
  }

  /**
   * This run's folder: {@code <project>/target/sms-emulator-timelines/<run>/} (Gradle: {@code build/}); the project is
   * Surefire's {@code basedir}, else the nearest folder upward holding a build file.
   */
  public static Path folder() {
    String basedir = System.getProperty("basedir");
    Path root = basedir != null ? Path.of(basedir) : Resolution.projectRoot(Path.of(""));
    String build = Files.exists(root.resolve("pom.xml")) || !Files.exists(root.resolve("build.gradle")) && !Files.exists(root.resolve("build.gradle.kts")) ? "target" : "build";
    return root.resolve(build).resolve("sms-emulator-timelines").resolve(RUN);
  }

  /** Writes a test's timeline page into this run's folder; answers its path. */
  public static Path write(String testId, String html) throws IOException {
    Path folder = folder();
    Files.createDirectories(folder);
    Path file = folder.resolve(fileName(testId));
    Files.writeString(file, html);
    return file;
  }
}
