package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Java of docs/java.md is the sample project's (kits/java/sample), file for file, so the guide shows code that
 * .ci/run compiles and passes in a new project outside the checkout; and the README starts with its two commands.
 */
class GuideTest {
  @Test
  void theGuidesJavaIsTheSampleProjects() throws IOException {
    String guide = Files.readString(Path.of("..", "..", "docs", "java.md"));
    Matcher block = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(guide);
    List<String> shown = new ArrayList<>();
    while (block.find()) shown.add(block.group(1));
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
