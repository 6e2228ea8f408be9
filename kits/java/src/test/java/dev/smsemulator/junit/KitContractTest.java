package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The kit against test-vectors/kit-contract.json, the one contract written from the emulator's code: every control
 * operation (and shortcut) is a public method of {@link Control} by its Java name, and the version, paths, start
 * flags, resolution rule and timeline names are the contract's.
 */
class KitContractTest {
  @SuppressWarnings("unchecked")
  static Map<String, Object> contract() throws IOException {
    return (Map<String, Object>) Json.parse(Files.readString(Path.of("..", "..", "test-vectors", "kit-contract.json")));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> at(Map<String, Object> map, String key) {
    return (Map<String, Object>) map.get(key);
  }

  /** The Java names of the contract's operations and shortcuts that Control lacks as public instance methods. */
  @SuppressWarnings("unchecked")
  static List<String> missing(Class<?> control, List<Map<String, Object>> operations) {
    List<String> missing = new ArrayList<>();
    for (Map<String, Object> operation : operations) {
      String name = (String) ((Map<String, Object>) operation.get("names")).get("java");
      boolean offered = Arrays.stream(control.getMethods())
          .anyMatch(method -> method.getName().equals(name) && !Modifier.isStatic(method.getModifiers()) && method.getDeclaringClass() == control);
      if (!offered) missing.add(operation.get("id") + " as " + name);
    }
    return missing;
  }

  @TestFactory
  @SuppressWarnings("unchecked")
  Stream<DynamicTest> everyControlOperationIsAMethodOfControl() throws IOException {
    Map<String, Object> contract = contract();
    List<Map<String, Object>> all = new ArrayList<>((List<Map<String, Object>>) contract.get("operations"));
    all.addAll((List<Map<String, Object>>) contract.getOrDefault("shortcuts", List.of()));
    assertTrue(all.size() > 40, "the contract lists the control operations");
    return all.stream().map(operation -> DynamicTest.dynamicTest((String) operation.get("id"),
        () -> assertEquals(List.of(), missing(Control.class, List.of(operation)))));
  }

  /** A control class without an operation is found missing: the check above can fail. */
  @Test
  void aMissingOperationIsFound() throws IOException {
    class Partial {
      public Status health() {
        return null;
      }
    }
    List<Map<String, Object>> two = List.of(
        Map.of("id", "health", "names", Map.of("java", "health")),
        Map.of("id", "messages.wait", "names", Map.of("java", "messagesWait")));
    assertEquals(List.of("messages.wait as messagesWait"), missing(Partial.class, two));
  }

  @Test
  void theKitsVersionIsTheContractsAndPackageJsons() throws IOException {
    String packageVersion = (String) ((Map<?, ?>) Json.parse(Files.readString(Path.of("..", "..", "package.json")))).get("version");
    assertEquals(contract().get("version"), Carried.version());
    assertEquals(packageVersion, Carried.version());
  }

  @Test
  @SuppressWarnings("unchecked")
  void thePathsAreTheContracts() throws IOException {
    Map<String, Object> paths = at(contract(), "paths");
    assertEquals(paths.get("control"), Control.PATH);
    assertEquals(paths.get("api"), SmsClient.API_PATHS);
    Map<String, Object> start = at(contract(), "start");
    assertEquals(start.get("args"), Emulator.START_ARGS);
    assertEquals("bin/sms-emulator.js", start.get("bundleEntry"));
    Method bundle = Arrays.stream(Carried.class.getDeclaredMethods()).filter(m -> m.getName().equals("bundle")).findFirst().orElseThrow();
    assertEquals(Path.class, bundle.getReturnType());
  }

  @Test
  void theResolutionRuleIsTheContracts() throws IOException {
    Map<String, Object> resolution = at(contract(), "resolution");
    assertEquals(resolution.get("order"), Resolution.ORDER);
    assertEquals(resolution.get("env"), Resolution.ENV);
    assertEquals(((Number) resolution.get("minimumNode")).intValue(), Resolution.MINIMUM_NODE);
    assertEquals(resolution.get("minimumNodeVersion"), Resolution.MINIMUM_NODE_VERSION);
    assertEquals(resolution.get("notFound"), Resolution.NOT_FOUND);
  }

  @TestFactory
  @SuppressWarnings("unchecked")
  Stream<DynamicTest> timelineFilesAreNamedByTheContractsRule() throws IOException {
    Map<String, Object> timeline = at(contract(), "timeline");
    assertEquals(((Number) timeline.get("maxLength")).intValue(), Timelines.MAX_LENGTH);
    assertEquals(((Number) timeline.get("hashLength")).intValue(), Timelines.HASH_LENGTH);
    return ((List<Map<String, Object>>) timeline.get("examples")).stream().map(example -> DynamicTest.dynamicTest((String) example.get("test"),
        () -> assertEquals(example.get("file"), Timelines.fileName((String) example.get("test")))));
  }
}
