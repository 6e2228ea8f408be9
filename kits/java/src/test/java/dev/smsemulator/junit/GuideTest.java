package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The Java of docs/java.md is the sample project's (kits/java/sample), file for file, and it compiles against this kit
 * with warnings as errors and passes as pasted, as does the Java of docs/cost-checks.md (its `## Java` section, whose
 * failure text is the kit's); and the README starts with its two commands.
 */
class GuideTest {
  /** The guide's java blocks, but those with a `<!-- not run: reason -->` line above them. */
  private static List<String> guideBlocks() throws IOException {
    return blocks(Files.readString(Path.of("..", "..", "docs", "java.md")), "java");
  }

  /** The `## Java` section of docs/cost-checks.md, up to the next section. */
  private static String costChecksJava() throws IOException {
    String page = Files.readString(Path.of("..", "..", "docs", "cost-checks.md"));
    return page.replaceAll("(?s)^.*?\n## Java\n(.*?)(\n## .*)?$", "$1");
  }

  /** A page's blocks of a language, but those with a `<!-- not run: reason -->` line above them. */
  private static List<String> blocks(String page, String language) {
    Matcher block = Pattern.compile("(?m)^([^\n]*)\n```" + language + "\n(.*?)^```$", Pattern.DOTALL).matcher(page);
    List<String> shown = new ArrayList<>();
    while (block.find()) if (!block.group(1).startsWith("<!-- not run: ")) shown.add(block.group(2));
    return shown;
  }

  @Test
  void theGuidesJavaCompilesAgainstThisKitAndPassesAsPasted(@TempDir Path project) throws Exception {
    compileAndPass(guideBlocks(), project);
  }

  @Test
  void theCostChecksJavaCompilesAgainstThisKitAndPassesAsPasted(@TempDir Path project) throws Exception {
    List<String> shown = blocks(costChecksJava(), "java");
    assertEquals(1, shown.size(), "the test of docs/cost-checks.md's ## Java");
    compileAndPass(shown, project);
  }

  @Test
  @SmsEmulatorTest
  void theCostChecksFailureIsTheKits(SmsWorld sms) throws IOException {
    List<String> shown = blocks(costChecksJava(), "text");
    assertEquals(1, shown.size(), "the failure docs/cost-checks.md's ## Java shows");
    String text = shown.get(0).replaceAll("(?s)^[^\"]*\"(.*?)\"\n.*", "$1");
    AssertionError failure = assertThrows(AssertionError.class, () -> sms.assertStaysGsm7(text));
    assertEquals(shown.get(0), failure.getMessage() + "\n");
  }

  /** Compiles the blocks with warnings as errors against this kit, and runs each test class among them: all pass. */
  private void compileAndPass(List<String> blocks, Path project) throws Exception {
    List<String> sources = new ArrayList<>();
    for (String code : blocks) {
      String type = code.replaceAll("(?s).*?\\n(?:public )?(?:final )?class (\\w+).*", "$1");
      Path file = Files.createDirectories(project.resolve("src")).resolve(type + ".java");
      Files.writeString(file, code);
      sources.add(file.toString());
    }
    Path classes = Files.createDirectories(project.resolve("classes"));
    // The test's own class path: this kit's classes and JUnit, as the project's test scope has them.
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> arguments = new ArrayList<>(List.of("-Xlint:all", "-Werror", "-cp", classPath, "-d", classes.toString()));
    arguments.addAll(sources);
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int status = ToolProvider.getSystemJavaCompiler().run(null, errors, errors, arguments.toArray(String[]::new));
    assertEquals(0, status, errors.toString(StandardCharsets.UTF_8));
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      for (String code : blocks) {
        if (!code.contains("@Test")) continue;
        String pkg = code.replaceAll("(?s)^package ([\\w.]+);.*", "$1");
        String type = code.replaceAll("(?s).*?\\n(?:public )?(?:final )?class (\\w+).*", "$1");
        var events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(loader.loadClass(pkg + "." + type)))
            .execute().testEvents();
        List<String> failures = events.failed().stream()
            .map(event -> event.getTestDescriptor().getDisplayName() + ": " + event.getPayload(TestExecutionResult.class)
                .flatMap(TestExecutionResult::getThrowable).map(Throwable::toString).orElse(""))
            .toList();
        assertEquals(List.of(), failures, "the guide's test, as pasted");
        events.assertStatistics(stats -> stats.aborted(0));
        assertTrue(events.succeeded().count() > 0, "the guide's test ran");
      }
    }
  }

  @Test
  void theGuidesJavaIsTheSampleProjects() throws IOException {
    List<String> shown = guideBlocks();
    assertEquals(2, shown.size(), "the app and its test");
    for (String code : shown) {
      String pkg = code.replaceAll("(?s)^package ([\\w.]+);.*", "$1");
      String type = code.replaceAll("(?s).*?\\n(?:public )?(?:final )?class (\\w+).*", "$1");
      String folder = code.contains("@Test") ? "test" : "main";
      Path file = Path.of("sample", "src", folder, "java").resolve(pkg.replace('.', '/')).resolve(type + ".java");
      assertTrue(Files.exists(file), file + " (shown in docs/java.md) is in the sample project");
      assertEquals(Files.readString(file), code, file.toString());
    }
  }

  @Test
  void theReadmeStartsWithItsTwoCommands() throws IOException {
    List<String> lines = Files.readString(Path.of("README.md")).lines().toList();
    assertTrue(lines.get(0).startsWith("# "), lines.get(0));
    assertEquals(List.of("", "```sh"), lines.subList(1, 3));
    assertEquals("```", lines.get(5), "two commands, then the block ends");
  }
}
