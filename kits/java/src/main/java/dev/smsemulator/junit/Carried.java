package dev.smsemulator.junit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * What the kit carries on the class path: the emulator's bundle (resources {@code dev/smsemulator/junit/emulator/} of
 * this jar, listed in {@code emulator.list}) and, from the {@code dev.smsemulator:sms-emulator-node} jar of the
 * platform's classifier, a Node binary ({@code dev/smsemulator/node/<classifier>/node}). Both are copied once into a
 * cache folder keyed by the kit's version and the part's content digest ({@code ~/.cache/sms-emulator/<version>/}),
 * atomically, so parallel JVMs and later runs share one copy.
 */
final class Carried {
  static final String BUNDLE = "dev/smsemulator/junit/emulator/";
  static final String BUNDLE_LIST = "dev/smsemulator/junit/emulator.list";
  static final String BUNDLE_DIGEST = "dev/smsemulator/junit/emulator.digest";
  static final String NODE = "dev/smsemulator/node/";
  /** The platforms a runtime jar is published for, by os-maven-plugin's classifier names. */
  static final List<String> PLATFORMS = List.of("linux-x86_64", "linux-aarch_64", "osx-x86_64", "osx-aarch_64", "windows-x86_64");

  private Carried() {}

  /** The kit's version, from the jar's kit.properties (package.json's version). */
  static String version() {
    Properties properties = new Properties();
    try (InputStream in = Carried.class.getResourceAsStream("/dev/smsemulator/junit/kit.properties")) {
      if (in != null) properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties.getProperty("version", "unknown");
  }

  /** This JVM's platform as a classifier ({@code linux-x86_64}, {@code osx-aarch_64}, …), whether or not one is published. */
  static String classifier(String osName, String osArch) {
    String os = osName.toLowerCase(Locale.ROOT);
    String system = os.startsWith("linux") ? "linux" : os.startsWith("mac") || os.startsWith("darwin") ? "osx" : os.startsWith("windows") ? "windows" : os.replaceAll("\\W", "");
    String arch = osArch.toLowerCase(Locale.ROOT);
    String cpu = arch.equals("amd64") || arch.equals("x86_64") || arch.equals("x64") ? "x86_64" : arch.equals("aarch64") || arch.equals("arm64") ? "aarch_64" : arch;
    return system + "-" + cpu;
  }

  static String classifier() {
    return classifier(System.getProperty("os.name"), System.getProperty("os.arch"));
  }

  /** The cache folder: SMS_EMULATOR_CACHE, else $XDG_CACHE_HOME/sms-emulator, %LOCALAPPDATA%\sms-emulator, ~/.cache/sms-emulator. */
  static Path cacheRoot() {
    String own = System.getenv("SMS_EMULATOR_CACHE");
    if (own != null && !own.isEmpty()) return Path.of(own);
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isEmpty()) return Path.of(xdg, "sms-emulator");
    String local = System.getenv("LOCALAPPDATA");
    if (local != null && !local.isEmpty() && System.getProperty("os.name").startsWith("Windows")) return Path.of(local, "sms-emulator");
    return Path.of(System.getProperty("user.home"), ".cache", "sms-emulator");
  }

  /** Whether the bundle is on the class path. */
  static boolean hasBundle() {
    return Carried.class.getClassLoader().getResource(BUNDLE_LIST) != null;
  }

  static String nodeName(String classifier) {
    return classifier.startsWith("windows") ? "node.exe" : "node";
  }

  /** Whether the runtime jar of this classifier is on the class path. */
  static boolean hasNode(String classifier) {
    return Carried.class.getClassLoader().getResource(NODE + classifier + "/" + nodeName(classifier)) != null;
  }

  /** The bundle's start script, copied into the cache on first use. */
  static Path bundle() {
    Path folder = cacheRoot().resolve(version()).resolve("bundle-" + digest(BUNDLE_DIGEST));
    String list = read(BUNDLE_LIST);
    ensure(folder, into -> {
      for (String file : list.split("\n")) {
        if (file.isBlank()) continue;
        Path target = into.resolve(file.trim()).normalize();
        if (!target.startsWith(into)) throw new IllegalStateException("a bundle file outside the bundle: " + file);
        Files.createDirectories(target.getParent());
        try (InputStream in = stream(BUNDLE + file.trim())) {
          Files.copy(in, target);
        }
      }
    });
    return folder.resolve("bin").resolve("sms-emulator.js");
  }

  /** The runtime jar's Node binary, copied into the cache on first use and made executable. */
  static Path node(String classifier) {
    Path folder = cacheRoot().resolve(version()).resolve("node-" + classifier + "-" + digest(NODE + classifier + "/digest"));
    String name = nodeName(classifier);
    ensure(folder, into -> {
      Path target = into.resolve(name);
      try (InputStream in = stream(NODE + classifier + "/" + name)) {
        Files.copy(in, target);
      }
      if (!target.toFile().setExecutable(true, false)) throw new IOException("cannot make " + target + " executable");
    });
    return folder.resolve(name);
  }

  private interface Fill {
    void into(Path folder) throws IOException;
  }

  /** Fills a folder once: written beside it under a name of its own, then renamed into place (a racing JVM's copy wins or loses whole). */
  private static void ensure(Path folder, Fill fill) {
    if (Files.isDirectory(folder)) return;
    Path partial = folder.resolveSibling(folder.getFileName() + ".partial-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
    try {
      Files.createDirectories(partial);
      fill.into(partial);
      try {
        Files.move(partial, folder, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException raced) {
        // Another JVM renamed its copy first: theirs is whole, so this one is dropped.
        if (!Files.isDirectory(folder)) throw raced;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy the carried emulator into " + folder + ": " + e.getMessage(), e);
    } finally {
      delete(partial);
    }
  }

  static void delete(Path folder) {
    if (!Files.exists(folder)) return;
    try (Stream<Path> walk = Files.walk(folder)) {
      walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // Best effort: what could not be removed is reported by the caller's own check.
    }
  }

  /** The content digest the build wrote beside a carried part: a rebuilt part of the same version gets a folder of its own. */
  private static String digest(String resource) {
    if (Carried.class.getClassLoader().getResource(resource) == null) return "unversioned";
    return read(resource).trim().replaceAll("[^0-9a-f]", "");
  }

  private static InputStream stream(String resource) throws IOException {
    InputStream in = Carried.class.getClassLoader().getResourceAsStream(resource);
    if (in == null) throw new IOException("the kit's jar lacks " + resource);
    return in;
  }

  private static String read(String resource) {
    try (InputStream in = stream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
