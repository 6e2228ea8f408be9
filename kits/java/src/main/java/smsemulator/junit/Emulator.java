package smsemulator.junit;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The emulator a test run drives: a running one (SMS_EMULATOR_URL), or one it started and stops. */
public final class Emulator implements AutoCloseable {
  /** Starts the emulator when SMS_EMULATOR_COMMAND is not set. */
  public static final String DEFAULT_COMMAND = "npx --yes sms-emulator";
  public final String origin;
  public final Control control;
  /** What the ready file said (origin, live, sandbox, control, apiKey, ...) when this run started it; else empty. */
  public final Map<String, Object> ready;
  private final Process process;

  private Emulator(String origin, Control control, Map<String, Object> ready, Process process) {
    this.origin = origin;
    this.control = control;
    this.ready = ready;
    this.process = process;
  }

  /**
   * SMS_EMULATOR_URL (with SMS_EMULATOR_CONTROL_TOKEN) names a running emulator; else SMS_EMULATOR_COMMAND (default
   * `npx --yes sms-emulator`, split on spaces) starts one on a free port with a manual clock and --parent-pid, so a
   * killed test run leaves no emulator behind; this waits for its ready file (SMS_EMULATOR_START_TIMEOUT seconds, 120).
   */
  @SuppressWarnings("unchecked")
  public static Emulator start() {
    String token = System.getenv("SMS_EMULATOR_CONTROL_TOKEN");
    String url = System.getenv("SMS_EMULATOR_URL");
    if (url != null && !url.isEmpty()) {
      Control control = new Control(url, token);
      checkIsEmulator(control);
      return new Emulator(control.origin, control, Map.of(), null);
    }
    try {
      Path directory = Files.createTempDirectory("sms-emulator-");
      Path readyFile = directory.resolve("ready.json");
      File log = directory.resolve("output.log").toFile();
      String command = System.getenv().getOrDefault("SMS_EMULATOR_COMMAND", DEFAULT_COMMAND);
      List<String> words = new ArrayList<>(List.of(command.trim().split("\\s+")));
      words.addAll(List.of("--port", "0", "--clock", "manual", "--ready-file", readyFile.toString(),
          "--parent-pid", Long.toString(ProcessHandle.current().pid())));
      Process process = new ProcessBuilder(words).redirectErrorStream(true).redirectOutput(log).start();
      long seconds = Long.parseLong(System.getenv().getOrDefault("SMS_EMULATOR_START_TIMEOUT", "120"));
      long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
      while (!Files.exists(readyFile)) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          String why = process.isAlive() ? "was not ready within " + seconds + " s" : "exited with " + process.exitValue();
          stopTree(process);
          throw new IllegalStateException("sms-emulator (" + String.join(" ", words) + ") " + why + ":\n" + Files.readString(log.toPath()));
        }
        Thread.sleep(50);
      }
      Map<String, Object> ready = (Map<String, Object>) Json.parse(Files.readString(readyFile));
      String origin = (String) ready.get("origin");
      return new Emulator(origin, new Control(origin, token), ready, process);
    } catch (IOException e) {
      throw new IllegalStateException("sms-emulator could not be started: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting sms-emulator", e);
    }
  }

  /** Refuses an address where something other than the emulator answers (the app under test, a proxy's page). */
  static void checkIsEmulator(Control control) {
    Object health = control.call("GET", "/health", null);
    if (!(health instanceof Map<?, ?> answer) || !"ok".equals(answer.get("status")))
      throw new IllegalStateException(control.origin + " is not an sms-emulator: /_emulator/health answered " + health);
  }

  /** Ends the process this run started, with what it started (npx, its shell, node). */
  @Override
  public void close() {
    if (process != null) stopTree(process);
  }

  private static void stopTree(Process process) {
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
