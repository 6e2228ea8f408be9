package smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The example of docs/java.md is ReminderExampleTest as it is, so the guide shows a test this suite runs. */
class GuideTest {
  @Test
  void theGuidesExampleIsATestThisSuiteRuns() throws Exception {
    String guide = Files.readString(Path.of("..", "..", "docs", "java.md"));
    Matcher block = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(guide);
    if (!block.find()) throw new AssertionError("docs/java.md shows no Java example");
    String example = Files.readString(Path.of("src", "test", "java", "smsemulator", "junit", "ReminderExampleTest.java"));
    assertEquals(example, block.group(1));
  }
}
