package smsemulator.junit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The JUnit 5 extension: one emulator for the whole run (in the root store, stopped when the run ends), and an
 * SmsWorld parameter for each test, deleted after it; a failing test gets the emulator's timeline of its account as a
 * file, named in its failure (a suppressed note) and as a report entry. Safe under parallel execution.
 */
public class SmsEmulatorExtension implements ParameterResolver, AfterTestExecutionCallback {
  private static final Namespace NAMESPACE = Namespace.create(SmsEmulatorExtension.class);

  /** The run's emulator, stopped with the root store. */
  private static final class EmulatorResource implements ExtensionContext.Store.CloseableResource {
    final Emulator emulator = Emulator.start();

    @Override
    public void close() {
      emulator.close();
    }
  }

  /** A test's world, deleted with the test's store. */
  private record WorldResource(SmsWorld world) implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      world.close();
    }
  }

  /** Names the timeline file in a failing test's output. */
  public static final class TimelineNote extends RuntimeException {
    public final Path path;

    TimelineNote(Path path) {
      super("sms-emulator timeline: the emulator's timeline of this test's account: " + path, null, false, false);
      this.path = path;
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == SmsWorld.class || type == Emulator.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Emulator emulator = context.getRoot().getStore(NAMESPACE)
        .getOrComputeIfAbsent("emulator", key -> new EmulatorResource(), EmulatorResource.class).emulator;
    if (parameter.getParameter().getType() == Emulator.class) return emulator;
    String name = context.getTestClass().map(Class::getSimpleName).orElse("") + "." + context.getDisplayName();
    return context.getStore(NAMESPACE)
        .getOrComputeIfAbsent("world", key -> new WorldResource(new SmsWorld(emulator, name)), WorldResource.class).world();
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    Throwable failure = context.getExecutionException().orElse(null);
    WorldResource resource = context.getStore(NAMESPACE).get("world", WorldResource.class);
    if (failure == null || resource == null) return;
    try {
      String name = context.getUniqueId().replaceAll("[^A-Za-z0-9_.-]+", "_");
      Path path = Path.of(System.getProperty("java.io.tmpdir"), "sms-emulator-timeline-" + name.substring(Math.max(0, name.length() - 120)) + ".html");
      Files.writeString(path, resource.world().reportHtml());
      context.publishReportEntry("sms-emulator timeline", path.toString());
      failure.addSuppressed(new TimelineNote(path));
    } catch (IOException | RuntimeException e) {
      // The report must never hide the test's own failure.
      failure.addSuppressed(new RuntimeException("sms-emulator timeline could not be written: " + e));
    }
  }
}
