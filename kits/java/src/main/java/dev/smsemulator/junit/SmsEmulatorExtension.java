package dev.smsemulator.junit;

import java.lang.reflect.AnnotatedElement;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The JUnit 5 extension: one emulator for the whole run (in the root store, stopped when the run ends), and an
 * {@link SmsWorld} parameter for each test, made with the {@link WorldSettings} of the test method (else of its class,
 * else of an enclosing class) and deleted after it. A {@code @BeforeEach} method that takes an {@code SmsWorld} gets the
 * same world as its test. A failing test gets the emulator's timeline of its account as a file under the build's
 * folder ({@link Timelines}), named in its failure (a suppressed note) and as a report entry. Safe under parallel
 * execution.
 */
public class SmsEmulatorExtension implements ParameterResolver, AfterTestExecutionCallback {
  private static final Namespace NAMESPACE = Namespace.create(SmsEmulatorExtension.class);

  static {
    // Before any test's own HTTP server: the JDK reads this switch once, when the JVM's first server is made.
    Catcher.preferNoDelay();
  }

  /** The run's emulator, stopped with the root store (JUnit closes an AutoCloseable value of a store with it). */
  private static final class EmulatorResource implements AutoCloseable {
    final Emulator emulator = Emulator.start();

    @Override
    public void close() {
      emulator.close();
    }
  }

  /** A test's world, deleted with the test's store. */
  private record WorldResource(SmsWorld world) implements AutoCloseable {
    @Override
    public void close() {
      world.close();
    }
  }

  /** Names the timeline file in a failing test's output. */
  public static final class TimelineNote extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The timeline's file. */
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

  /** The run's emulator, started on first use. */
  static Emulator emulator(ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE)
        .getOrComputeIfAbsent("emulator", key -> new EmulatorResource(), EmulatorResource.class).emulator;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Emulator emulator = emulator(context);
    if (parameter.getParameter().getType() == Emulator.class) return emulator;
    String name = context.getTestClass().map(Class::getSimpleName).orElse("") + "." + context.getDisplayName();
    return context.getStore(NAMESPACE).getOrComputeIfAbsent("world",
        key -> new WorldResource(SmsWorld.builder().name(name).apply(settings(context)).create(emulator)), WorldResource.class).world();
  }

  /** The settings of the test method, else of its class or the nearest enclosing class that has them. */
  static WorldSettings settings(ExtensionContext context) {
    Optional<WorldSettings> own = context.getTestMethod().map(method -> method.getAnnotation(WorldSettings.class));
    if (own.isPresent()) return own.get();
    for (Class<?> type = context.getTestClass().orElse(null); type != null; type = type.getEnclosingClass()) {
      WorldSettings settings = ((AnnotatedElement) type).getAnnotation(WorldSettings.class);
      if (settings != null) return settings;
    }
    return null;
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    Throwable failure = context.getExecutionException().orElse(null);
    WorldResource resource = context.getStore(NAMESPACE).get("world", WorldResource.class);
    if (failure == null || resource == null) return;
    try {
      Path path = Timelines.write(context.getUniqueId(), resource.world().timelineHtml());
      context.publishReportEntry("sms-emulator timeline", path.toString());
      failure.addSuppressed(new TimelineNote(path));
    } catch (Exception e) {
      // The report must never hide the test's own failure.
      failure.addSuppressed(new RuntimeException("sms-emulator timeline could not be written: " + e));
    }
  }
}
