package dev.smsemulator.junit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The emulator a test run drives: a running one ({@code SMS_EMULATOR_URL}), or one this run started and stops. Where
 * it comes from is decided once, by {@link Resolution}'s one rule, and printed when the run starts.
 */
public final class Emulator implements AutoCloseable {
  /** The flags a kit starts the emulator with (test-vectors/kit-contract.json {@code start.args}). */
  public static final List<String> START_ARGS =
      List.of("--port", "0", "--clock", "manual", "--ready-file", "{readyFile}", "--parent-pid", "{parentPid}");

  /** The emulator's origin (scheme, host and port). */
  public final String origin;
  /** Its control API, every operation. */
  public final Control control;
  /** What the ready file said (origin, live, sandbox, control, apiKey, ...) when this run started it; else empty. */
  public final Map<String, Object> ready;
  /** How this run found it: the resolution's step and what it found. */
  public final Resolution.Found found;
  /**
   * The address of this machine the emulator reaches: where its worlds' webhook catchers listen and what their URLs
   * name. {@link Catcher#LOOPBACK} but for an emulator in a container ({@link #at}), which posts to its network's
   * gateway.
   */
  public final String webhookHost;
  private final Process process;
  private final Path folder;
  private final AutoCloseable owner;

  private Emulator(String origin, Control control, Map<String, Object> ready, Resolution.Found found, String webhookHost, Process process,
      Path folder, AutoCloseable owner) {
    this.origin = origin;
    this.control = control;
    this.ready = ready;
    this.found = found;
    this.webhookHost = webhookHost;
    this.process = process;
    this.folder = folder;
    this.owner = owner;
  }

  /**
   * Finds or starts the run's emulator by the resolution order ({@link Resolution#resolve}) and prints which step it
   * took: {@code SMS_EMULATOR_URL} (with {@code SMS_EMULATOR_CONTROL_TOKEN}) → {@code SMS_EMULATOR_COMMAND} (a relative
   * path in it resolved against the project root) → the carried runtime with the carried bundle → a {@code node} ≥ 20
   * on {@code PATH} with the carried bundle; else one error naming all four. A started emulator gets a free port, a
   * manual clock and {@code --parent-pid} of this JVM (a killed run leaves no emulator behind), and has
   * {@link KitSettings#START_TIMEOUT} to be ready ({@code SMS_EMULATOR_START_TIMEOUT}, read by the contract's duration
   * grammar: {@code 2m}, {@code 90s}, or a bare number of seconds).
   */
  public static Emulator start() {
    return start(Resolution.resolve(Resolution.Environment.current()));
  }

  /** Starts (or reaches) the emulator a resolution found. */
  @SuppressWarnings("unchecked")
  public static Emulator start(Resolution.Found found) {
    System.out.println(KitSettings.ERROR_PREFIX + found.describe());
    String token = System.getenv("SMS_EMULATOR_CONTROL_TOKEN");
    if (found.step().equals("url")) return at(found, token, Catcher.LOOPBACK, null);
    Duration timeout = startTimeout(System.getenv(KitSettings.START_TIMEOUT_ENV));
    Path folder;
    try {
      folder = Files.createTempDirectory("sms-emulator-");
    } catch (IOException e) {
      throw new UncheckedIOException(KitSettings.ERROR_PREFIX + "no temporary folder for the ready file: " + e.getMessage(), e);
    }
    Process process = null;
    try {
      Path readyFile = folder.resolve("ready.json");
      File log = folder.resolve("output.log").toFile();
      List<String> words = new ArrayList<>(found.command());
      for (String arg : START_ARGS)
        words.add(arg.replace("{readyFile}", readyFile.toString()).replace("{parentPid}", Long.toString(ProcessHandle.current().pid())));
      ProcessBuilder builder = new ProcessBuilder(words).redirectErrorStream(true).redirectOutput(log);
      if (found.directory() != null) builder.directory(found.directory().toFile());
      process = builder.start();
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!Files.exists(readyFile)) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          String why = process.isAlive() ? "was not ready within " + timeout.toMillis() + " ms (" + KitSettings.START_TIMEOUT_ENV + ")" : "exited with " + process.exitValue();
          throw new IllegalStateException(KitSettings.ERROR_PREFIX + "the emulator (" + String.join(" ", words) + ") " + why + ":\n" + Files.readString(log.toPath()));
        }
        Thread.sleep(20); // polls the ready file: the process announces nothing else
      }
      Map<String, Object> ready = (Map<String, Object>) Json.parse(Files.readString(readyFile));
      String origin = (String) ready.get("origin");
      return new Emulator(origin, new Control(origin, token), ready, found, Catcher.LOOPBACK, process, folder, null);
    } catch (IOException | RuntimeException e) {
      stop(process, folder);
      throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(KitSettings.ERROR_PREFIX + "the emulator could not be started: " + e, e);
    } catch (InterruptedException e) {
      stop(process, folder);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting sms-emulator", e);
    }
  }

  /**
   * The running emulator at {@code url} with its control token (null when it needs none), as the resolution's
   * {@code url} step reaches one: what a container started by the Testcontainers module
   * ({@code dev.smsemulator:sms-emulator-testcontainers}) hands back. Refuses an address where no emulator answers.
   *
   * @param url the emulator's address (scheme, host and port)
   * @param controlToken its control token, or null
   * @param webhookHost the address of this machine the emulator reaches ({@link #webhookHost}): {@link Catcher#LOOPBACK}
   *     for one on this machine, a container network's gateway for one in a container
   * @param owner what {@link #close} closes too (the container), or null to leave it running
   * @return the emulator, its worlds made as with any other
   */
  public static Emulator at(String url, String controlToken, String webhookHost, AutoCloseable owner) {
    return at(new Resolution.Found("url", url, List.of(), null, List.of()), controlToken, webhookHost, owner);
  }

  private static Emulator at(Resolution.Found found, String token, String webhookHost, AutoCloseable owner) {
    Control control = new Control(found.url(), token);
    checkIsEmulator(control);
    return new Emulator(control.origin, control, Map.of(), found, webhookHost, null, null, owner);
  }

  /**
   * How long a started emulator has to be ready (the carried runtime to write its ready file, a container to answer on
   * its health path): {@code SMS_EMULATOR_START_TIMEOUT} read by the duration grammar ({@link KitSettings#parseDuration}),
   * or {@link KitSettings#START_TIMEOUT} when unset or blank.
   *
   * @param setting the variable's value, or null
   * @return the timeout
   * @throws IllegalArgumentException naming the variable, when the value is not a duration
   */
  public static Duration startTimeout(String setting) {
    return setting == null || setting.isBlank() ? KitSettings.START_TIMEOUT : KitSettings.parseDuration(KitSettings.START_TIMEOUT_ENV, setting);
  }

  /** Refuses an address where something other than the emulator answers (the app under test, a proxy's page). */
  static void checkIsEmulator(Control control) {
    Object health = control.call("GET", "/health", null);
    if (!(health instanceof Map<?, ?> answer) || !"ok".equals(answer.get("status")))
      throw new IllegalStateException(Http.shownUrl(control.origin) + " is not an sms-emulator: /_emulator/health answered " + health);
  }

  /**
   * The words that run the emulator's own CLI (for check-receiver): the command this run started it with, or, for a
   * running emulator, the carried runtime or a node on PATH with the carried bundle.
   */
  public List<String> cli() {
    return found.step().equals("url") ? Resolution.cli(Resolution.Environment.current()) : found.command();
  }

  /** The temporary folder of this run's ready file and output, removed by {@link #close}; null for a running emulator. */
  public Path folder() {
    return folder;
  }

  /** Ends the process this run started, with what it started, and removes its temporary folder; closes its owner. */
  @Override
  public void close() {
    stop(process, folder);
    if (owner != null) {
      try {
        owner.close();
      } catch (Exception e) {
        throw new IllegalStateException(KitSettings.ERROR_PREFIX + "the emulator's owner did not close: " + e, e);
      }
    }
  }

  private static void stop(Process process, Path folder) {
    if (process != null) {
      process.descendants().forEach(ProcessHandle::destroy);
      process.destroy();
      try {
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.descendants().forEach(ProcessHandle::destroyForcibly);
          process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (folder != null) Carried.delete(folder);
  }
}
