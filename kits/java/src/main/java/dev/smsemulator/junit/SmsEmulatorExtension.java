package dev.smsemulator.junit;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.nio.file.Path;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The JUnit 5 extension: one emulator for the whole run (in the root store, stopped when the run ends; with
 * {@code @SmsEmulatorTest(container = true)}, one container for the run, from {@link EmulatorContainerProvider}), and an
 * {@link SmsWorld} parameter for each test, made with the {@link WorldSettings} of the test method (else of its class,
 * else of an enclosing class) and deleted after it. A {@code @BeforeEach} method that takes an {@code SmsWorld} gets the
 * same world as its test. A failing test gets the emulator's timeline of its account as a file under the build's
 * folder ({@link Timelines}), named in its failure (a suppressed note) and as a report entry. A test's credit budget
 * ({@link CostBudget}) fails a test whose world spent more; the run's ({@value #SUITE_BUDGET}) fails the run at its
 * end, naming the tests that spent most. Safe under parallel execution.
 */
public class SmsEmulatorExtension implements ParameterResolver, AfterTestExecutionCallback {
  /**
   * The JUnit configuration parameter of the whole run's credit budget (from 0; unset: none): in
   * {@code src/test/resources/junit-platform.properties} ({@code sms-emulator.suite-budget=40}), Surefire's
   * {@code configurationParameters}, or {@code mvn test -Dsms-emulator.suite-budget=40}. The run fails at its end when
   * its tests' worlds spent more, naming the five that spent most, each with its costliest message.
   */
  public static final String SUITE_BUDGET = "sms-emulator.suite-budget";

  private static final Namespace NAMESPACE = Namespace.create(SmsEmulatorExtension.class);

  static {
    // Before any test's own HTTP server: the JDK reads this switch once, when the JVM's first server is made.
    Catcher.preferNoDelay();
  }

  /** The run's emulator, stopped with the root store (JUnit closes an AutoCloseable value of a store with it). */
  private static final class EmulatorResource implements AutoCloseable {
    final Emulator emulator;

    EmulatorResource(Supplier<Emulator> start) {
      emulator = start.get();
    }

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

  /**
   * The run's emulator, started on first use: the container's when the nearest {@link SmsEmulatorTest} says
   * {@code container = true}, else the resolution order's.
   */
  static Emulator emulator(ExtensionContext context) {
    SmsEmulatorTest test = nearest(context, SmsEmulatorTest.class);
    boolean container = test != null && test.container();
    Supplier<Emulator> start = container
        ? () -> EmulatorContainerProvider.startFirst(ServiceLoader.load(EmulatorContainerProvider.class))
        : Emulator::start;
    return context.getRoot().getStore(NAMESPACE)
        .getOrComputeIfAbsent(container ? "container" : "emulator", key -> new EmulatorResource(start), EmulatorResource.class).emulator;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Emulator emulator = emulator(context);
    if (parameter.getParameter().getType() == Emulator.class) return emulator;
    return context.getStore(NAMESPACE).getOrComputeIfAbsent("world",
        key -> new WorldResource(SmsWorld.builder().name(testName(context)).apply(settings(context)).create(emulator)), WorldResource.class).world();
  }

  /** A test as its world's clock and the run's budget name it: {@code Class.displayName}. */
  private static String testName(ExtensionContext context) {
    return context.getTestClass().map(Class::getSimpleName).orElse("") + "." + context.getDisplayName();
  }

  /** The settings of the test method, else of its class or the nearest enclosing class that has them. */
  static WorldSettings settings(ExtensionContext context) {
    return nearest(context, WorldSettings.class);
  }

  /** The annotation on the test method, else on its class or the nearest enclosing class that has it; else null. */
  private static <A extends Annotation> A nearest(ExtensionContext context, Class<A> annotation) {
    Optional<A> own = context.getTestMethod().map(method -> method.getAnnotation(annotation));
    if (own.isPresent()) return own.get();
    for (Class<?> type = context.getTestClass().orElse(null); type != null; type = type.getEnclosingClass()) {
      A found = ((AnnotatedElement) type).getAnnotation(annotation);
      if (found != null) return found;
    }
    return null;
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    WorldResource resource = context.getStore(NAMESPACE).get("world", WorldResource.class);
    if (resource == null) return;
    AssertionError overBudget = checkBudgets(context, resource.world());
    Throwable failure = context.getExecutionException().orElse(overBudget);
    if (failure == null) return;
    try {
      Path path = Timelines.write(context.getUniqueId(), resource.world().timelineHtml());
      context.publishReportEntry("sms-emulator timeline", path.toString());
      failure.addSuppressed(new TimelineNote(path));
    } catch (Exception e) {
      // The report must never hide the test's own failure.
      failure.addSuppressed(new RuntimeException("sms-emulator timeline could not be written: " + e));
    }
    // JUnit adds it to the test's own failure, if any, as a suppressed one.
    if (overBudget != null) throw overBudget;
  }

  /**
   * Asks the world's spend when the test or the run has a budget: keeps it for the run's, and answers the test's
   * failure when the world spent more than the test's budget (else null).
   */
  private static AssertionError checkBudgets(ExtensionContext context, SmsWorld world) {
    CostBudget budget = nearest(context, CostBudget.class);
    SuiteSpend suite = SuiteSpend.of(context, NAMESPACE);
    if (budget == null && suite == null) return null;
    if (budget != null && budget.value() < 0)
      throw new IllegalArgumentException(KitSettings.ERROR_PREFIX + "@CostBudget takes credits from 0, not " + budget.value());
    Spend spent = world.spend();
    if (suite != null) suite.record(testName(context), spent);
    if (budget == null) return null;
    String failure = SmsWorld.overBudget(spent, budget.value(), "this test");
    return failure == null ? null : new AssertionError(failure);
  }
}
