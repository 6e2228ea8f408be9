package dev.smsemulator.junit;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one rule by which every kit finds an emulator (docs/decisions/0002-kit-artefacts.md), in order: {@code url}
 * ({@code SMS_EMULATOR_URL}), {@code command} ({@code SMS_EMULATOR_COMMAND}, a relative path in it resolved against the
 * project root), {@code carried} (the runtime jar of this platform with the carried bundle), {@code path-node} (a
 * {@code node} ≥ 20 on {@code PATH} with the carried bundle). Never an unpinned {@code npx}: when none works, one error
 * names all four and what each found.
 */
public final class Resolution {
  /** The steps, in order (test-vectors/kit-contract.json {@code resolution.order}). */
  public static final List<String> ORDER = List.of("url", "command", "carried", "path-node");
  /** The oldest Node major the carried bundle runs on (kit-contract {@code resolution.minimumNode}). */
  public static final int MINIMUM_NODE = 20;
  /** The oldest Node the carried bundle runs on (kit-contract {@code resolution.minimumNodeVersion}). */
  public static final String MINIMUM_NODE_VERSION = "20.19.0";
  /**
   * The one error when no step works, with a placeholder for what each step found (kit-contract
   * {@code resolution.notFound}; the kit's tests hold the two equal).
   */
  public static final String NOT_FOUND = "sms-emulator: no emulator to test against. Tried, in this order:\n"
      + "  1. SMS_EMULATOR_URL (a running emulator, with SMS_EMULATOR_CONTROL_TOKEN if it needs one): {url}\n"
      + "  2. SMS_EMULATOR_COMMAND (a command that starts one; a relative path in it is resolved against the project root): {command}\n"
      + "  3. the Node runtime this kit carries, with the emulator it carries: {carried}\n"
      + "  4. a node 20.19.0 or newer on PATH, with the emulator this kit carries: {pathNode}\n"
      + "Set SMS_EMULATOR_URL or SMS_EMULATOR_COMMAND, add this kit's runtime for your platform, or install Node 20 or newer."
      + " An unpinned npx is never run.";
  /** The files that mark a project's root, nearest first: Maven's, then Gradle's. */
  static final List<String> BUILD_FILES = List.of("pom.xml", "build.gradle.kts", "build.gradle");

  private Resolution() {}

  /** What the resolution looks at; {@link #current()} is this JVM's, tests give their own. */
  public interface Environment {
    /** An environment variable, or null. */
    String variable(String name);

    /** The folder the run started in (Maven's module folder under Surefire). */
    Path workingDirectory();

    /** This platform's classifier. */
    String classifier();

    boolean hasBundle();

    boolean hasNode(String classifier);

    /** Copies the carried bundle out (once) and answers its start script. */
    Path bundle();

    /** Copies the carried Node out (once) and answers it. */
    Path node(String classifier);

    /** {@code node --version} of an executable ("v20.19.0"), or null when it does not run. */
    String nodeVersion(Path executable);

    /** This JVM's environment and class path. */
    static Environment current() {
      return new Environment() {
        public String variable(String name) {
          return System.getenv(name);
        }

        public Path workingDirectory() {
          return Path.of("").toAbsolutePath();
        }

        public String classifier() {
          return Carried.classifier();
        }

        public boolean hasBundle() {
          return Carried.hasBundle();
        }

        public boolean hasNode(String classifier) {
          return Carried.hasNode(classifier);
        }

        public Path bundle() {
          return Carried.bundle();
        }

        public Path node(String classifier) {
          return Carried.node(classifier);
        }

        public String nodeVersion(Path executable) {
          try {
            Process process = new ProcessBuilder(executable.toString(), "--version").redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0 ? out : null;
          } catch (IOException e) {
            return null;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
          }
        }
      };
    }
  }

  /**
   * The step taken: {@code url} with the emulator's address, or a {@code command} to start (run in {@code directory}),
   * with what each earlier step found ({@code passed}).
   */
  public record Found(String step, String url, List<String> command, Path directory, List<String> passed) {
    /** One line for the run's output: which step, what it runs or reaches, and why the steps before it were passed. */
    public String describe() {
      String what = step.equals("url") ? "the running emulator at " + Http.shownUrl(url) + " (SMS_EMULATOR_URL)" : String.join(" ", command);
      String before = passed.isEmpty() ? "" : " [" + String.join("; ", passed) + "]";
      return "emulator by step " + (ORDER.indexOf(step) + 1) + " of " + String.join(" → ", ORDER) + " (" + step + "): " + what + before;
    }
  }

  /** Thrown when no step of the resolution order works; its message names all four and what each found. */
  public static final class NotFound extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    NotFound(String message) {
      super(message);
    }
  }

  /** The nearest folder upward from {@code start} holding a build file ({@code pom.xml}, Gradle's), else {@code start}. */
  public static Path projectRoot(Path start) {
    for (Path folder = start.toAbsolutePath(); folder != null; folder = folder.getParent())
      for (String file : BUILD_FILES) if (Files.isRegularFile(folder.resolve(file))) return folder;
    return start.toAbsolutePath();
  }

  /** The words of a command, with each relative path (a word holding a path separator) resolved against {@code root}. */
  public static List<String> commandWords(String command, Path root) {
    List<String> words = new ArrayList<>();
    for (String word : command.trim().split("\\s+")) {
      boolean path = (word.contains("/") || word.contains(File.separator)) && !word.startsWith("-") && !word.contains("://");
      words.add(path && !Path.of(word).isAbsolute() ? root.resolve(word).normalize().toString() : word);
    }
    return words;
  }

  /** The first {@code node} on the {@code PATH} given, or null. */
  static Path nodeOnPath(String path, String classifier) {
    if (path == null) return null;
    for (String folder : path.split(Pattern.quote(File.pathSeparator))) {
      if (folder.isEmpty()) continue;
      Path candidate = Path.of(folder, Carried.nodeName(classifier));
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return candidate;
    }
    return null;
  }

  /** {@code node --version}'s answer ("v22.3.0") as major, minor, patch; null when it is not a version. */
  static int[] version(String text) {
    Matcher digits = Pattern.compile("^v?(\\d+)\\.(\\d+)\\.(\\d+)").matcher(text == null ? "" : text.trim());
    if (!digits.find()) return null;
    return new int[] {Integer.parseInt(digits.group(1)), Integer.parseInt(digits.group(2)), Integer.parseInt(digits.group(3))};
  }

  /** Whether a {@code node --version} answer is at least {@link #MINIMUM_NODE_VERSION}. */
  static boolean supported(String text) {
    int[] have = version(text);
    int[] need = version(MINIMUM_NODE_VERSION);
    if (have == null) return false;
    for (int i = 0; i < 3; i++) if (have[i] != need[i]) return have[i] > need[i];
    return true;
  }

  /** Takes the first step of the order that works; else throws {@link NotFound} with what each step found. */
  public static Found resolve(Environment environment) {
    List<String> passed = new ArrayList<>();
    String url = environment.variable("SMS_EMULATOR_URL");
    if (url != null && !url.isBlank()) return new Found("url", url.trim(), List.of(), null, passed);
    String urlNote = "not set";
    passed.add("url: SMS_EMULATOR_URL " + urlNote);

    Path root = projectRoot(environment.workingDirectory());
    String command = environment.variable("SMS_EMULATOR_COMMAND");
    if (command != null && !command.isBlank()) return new Found("command", null, commandWords(command, root), root, passed);
    String commandNote = "not set (the project root is " + root + ")";
    passed.add("command: SMS_EMULATOR_COMMAND " + commandNote);

    String classifier = environment.classifier();
    boolean bundle = environment.hasBundle();
    String noBundle = "the kit's jar carries no emulator bundle (" + Carried.BUNDLE_LIST + " is not on the class path)";
    String carriedNote;
    if (!Carried.PLATFORMS.contains(classifier))
      carriedNote = "no runtime is published for this platform (" + classifier + "; published: " + String.join(", ", Carried.PLATFORMS) + ")";
    else if (!environment.hasNode(classifier))
      carriedNote = "not on the class path: add the test dependency dev.smsemulator:sms-emulator-node with classifier " + classifier
          + " (os-maven-plugin's ${os.detected.classifier})";
    else if (!bundle) carriedNote = noBundle;
    else return new Found("carried", null, List.of(environment.node(classifier).toString(), environment.bundle().toString()), root, passed);
    passed.add("carried: " + carriedNote);

    Path node = nodeOnPath(environment.variable("PATH"), classifier);
    String pathNote;
    if (node == null) pathNote = "no node on PATH";
    else {
      String version = environment.nodeVersion(node);
      if (!supported(version)) pathNote = node + " is " + (version == null ? "not runnable" : version) + ", older than " + MINIMUM_NODE_VERSION;
      else if (!bundle) pathNote = node + " (" + version + ") found, but " + noBundle;
      else return new Found("path-node", null, List.of(node.toString(), environment.bundle().toString()), root, passed);
    }
    throw new NotFound(NOT_FOUND.replace("{url}", urlNote).replace("{command}", commandNote).replace("{carried}", carriedNote)
        .replace("{pathNode}", pathNote));
  }

  /** A Node and the carried bundle to run the emulator's CLI with (steps carried and path-node only). */
  static List<String> cli(Environment environment) {
    Map<String, String> none = new java.util.HashMap<>();
    none.put("SMS_EMULATOR_URL", null);
    none.put("SMS_EMULATOR_COMMAND", null);
    Found found = resolve(new Environment() {
      public String variable(String name) {
        return none.containsKey(name) ? null : environment.variable(name);
      }

      public Path workingDirectory() {
        return environment.workingDirectory();
      }

      public String classifier() {
        return environment.classifier();
      }

      public boolean hasBundle() {
        return environment.hasBundle();
      }

      public boolean hasNode(String classifier) {
        return environment.hasNode(classifier);
      }

      public Path bundle() {
        return environment.bundle();
      }

      public Path node(String classifier) {
        return environment.node(classifier);
      }

      public String nodeVersion(Path executable) {
        return environment.nodeVersion(executable);
      }
    });
    return found.command();
  }

  /** The names of the environment variables the rule reads (kit-contract {@code resolution.env}). */
  public static final Map<String, String> ENV = Map.of(
      "url", "SMS_EMULATOR_URL",
      "token", "SMS_EMULATOR_CONTROL_TOKEN",
      "command", "SMS_EMULATOR_COMMAND",
      "startTimeout", "SMS_EMULATOR_START_TIMEOUT");
}
