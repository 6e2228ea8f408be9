package dev.smsemulator.junit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

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

  /** The file name of a test's timeline: its id's unsafe runs as one _, cut from the front to fit {@value #MAX_LENGTH}. */
  public static String fileName(String testId) {
    String safe = testId.replaceAll("[^A-Za-z0-9_.-]+", "_");
    int room = MAX_LENGTH - PREFIX.length() - SUFFIX.length();
    return PREFIX + safe.substring(Math.max(0, safe.length() - room)) + SUFFIX;
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
