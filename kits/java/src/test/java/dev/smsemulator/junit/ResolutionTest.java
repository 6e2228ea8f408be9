package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one resolution order (url → command → carried → path-node, never npx), on environments the test makes. */
class ResolutionTest {
  @TempDir Path project;

  /** An environment of the test's making: variables, a working folder, what the class path carries, node versions. */
  final class Fake implements Resolution.Environment {
    final Map<String, String> variables = new HashMap<>();
    Path working;
    String classifier = "linux-x86_64";
    boolean bundle = true;
    boolean node = true;
    final Map<Path, String> versions = new HashMap<>();

    public String variable(String name) {
      return variables.get(name);
    }

    public Path workingDirectory() {
      return working;
    }

    public String classifier() {
      return classifier;
    }

    public boolean hasBundle() {
      return bundle;
    }

    public boolean hasNode(String classifier) {
      return node;
    }

    public Path bundle() {
      return Path.of("/cache/0.1.0/bundle/bin/sms-emulator.js");
    }

    public Path node(String classifier) {
      return Path.of("/cache/0.1.0/node-" + classifier + "/node");
    }

    public String nodeVersion(Path executable) {
      return versions.get(executable);
    }
  }

  Fake fake() throws IOException {
    Files.writeString(project.resolve("pom.xml"), "<project/>");
    Path module = Files.createDirectories(project.resolve("service").resolve("src"));
    Fake fake = new Fake();
    fake.working = module;
    return fake;
  }

  Path nodeOnPath(Fake fake, String version) throws IOException {
    Path bin = Files.createDirectories(project.resolve("bin"));
    Path node = bin.resolve("node");
    Files.writeString(node, "");
    assertTrue(node.toFile().setExecutable(true));
    fake.variables.put("PATH", bin.toString());
    fake.versions.put(node, version);
    return node;
  }

  @Test
  void aPasswordInTheUrlIsMaskedWhereTheKitPrintsItAsTheEmulatorDoes() throws IOException {
    Fake fake = fake();
    fake.variables.put("SMS_EMULATOR_URL", "http://proxy:pw-PLANTED-1@127.0.0.1:9");
    Resolution.Found found = Resolution.resolve(fake);
    assertEquals("http://proxy:pw-PLANTED-1@127.0.0.1:9", found.url());
    assertTrue(found.describe().contains("the running emulator at http://proxy:***@127.0.0.1:9 "), found.describe());
    ControlException refused =
        assertThrows(ControlException.class, () -> new Control(found.url(), null).call("GET", "/health", null));
    assertTrue(refused.getMessage().contains("http://proxy:***@127.0.0.1:9"), refused.getMessage());
    assertFalse((found.describe() + refused.getMessage()).contains("pw-PLANTED-1"));
    assertEquals("http://user:***@[::1]:4000/hook?to=a@b", Http.shownUrl("http://user:p@ss:w@rd@[::1]:4000/hook?to=a@b"));
    for (String kept : List.of("http://127.0.0.1:4000/x", "http://hooks@h/", "http://u:@h/", "http://h/p@x", "not a url: pw@host"))
      assertEquals(kept, Http.shownUrl(kept));
  }

  @Test
  void aUrlComesFirst() throws IOException {
    Fake fake = fake();
    fake.variables.put("SMS_EMULATOR_URL", "http://127.0.0.1:2727");
    fake.variables.put("SMS_EMULATOR_COMMAND", "node emulator.js");
    Resolution.Found found = Resolution.resolve(fake);
    assertEquals("url", found.step());
    assertEquals("http://127.0.0.1:2727", found.url());
    assertTrue(found.describe().contains("step 1 of url → command → carried → path-node"), found.describe());
  }

  @Test
  void aRelativePathInTheCommandIsResolvedAgainstTheProjectRoot() throws IOException {
    Fake fake = fake();
    fake.variables.put("SMS_EMULATOR_COMMAND", "node ./tools/emulator.js --log-requests");
    Resolution.Found found = Resolution.resolve(fake);
    assertEquals("command", found.step());
    assertEquals(List.of("node", project.resolve("tools/emulator.js").toString(), "--log-requests"), found.command());
    assertEquals(project, found.directory());
  }

  @Test
  void theCarriedRuntimeComesBeforeANodeOnPath() throws IOException {
    Fake fake = fake();
    nodeOnPath(fake, "v22.3.0");
    Resolution.Found found = Resolution.resolve(fake);
    assertEquals("carried", found.step());
    assertEquals(List.of("/cache/0.1.0/node-linux-x86_64/node", "/cache/0.1.0/bundle/bin/sms-emulator.js"), found.command());
    assertTrue(found.describe().contains("SMS_EMULATOR_URL not set"), found.describe());
  }

  @Test
  void withoutTheRuntimeJarANodeOnPathRunsTheCarriedBundle() throws IOException {
    Fake fake = fake();
    fake.node = false;
    Path node = nodeOnPath(fake, "v20.19.0");
    Resolution.Found found = Resolution.resolve(fake);
    assertEquals("path-node", found.step());
    assertEquals(List.of(node.toString(), "/cache/0.1.0/bundle/bin/sms-emulator.js"), found.command());
  }

  @Test
  void aNodeOlderThan20_19IsPassedOver() throws IOException {
    Fake fake = fake();
    fake.node = false;
    nodeOnPath(fake, "v20.18.3");
    Resolution.NotFound none = assertThrows(Resolution.NotFound.class, () -> Resolution.resolve(fake));
    assertTrue(none.getMessage().contains("is v20.18.3, older than 20.19.0"), none.getMessage());
  }

  @Test
  void whenNothingWorksOneErrorNamesAllFourAndWhatEachFound() throws IOException {
    Fake fake = fake();
    fake.node = false;
    Resolution.NotFound none = assertThrows(Resolution.NotFound.class, () -> Resolution.resolve(fake));
    String expected = Resolution.NOT_FOUND
        .replace("{url}", "not set")
        .replace("{command}", "not set (the project root is " + project + ")")
        .replace("{carried}", "not on the class path: add the test dependency dev.smsemulator:sms-emulator-node with classifier linux-x86_64 (os-maven-plugin's ${os.detected.classifier})")
        .replace("{pathNode}", "no node on PATH");
    assertEquals(expected, none.getMessage());
    for (String placeholder : List.of("{url}", "{command}", "{carried}", "{pathNode}"))
      assertFalse(none.getMessage().contains(placeholder), placeholder + " is filled");
  }

  @Test
  void aPlatformWithoutARuntimeSaysSo() throws IOException {
    Fake fake = fake();
    fake.classifier = "linux-ppcle_64";
    Resolution.NotFound none = assertThrows(Resolution.NotFound.class, () -> Resolution.resolve(fake));
    assertTrue(none.getMessage().contains("no runtime is published for this platform (linux-ppcle_64"), none.getMessage());
  }

  @Test
  void platformsAreNamedAsOsMavenPluginNamesThem() {
    assertEquals("linux-x86_64", Carried.classifier("Linux", "amd64"));
    assertEquals("linux-aarch_64", Carried.classifier("Linux", "aarch64"));
    assertEquals("osx-aarch_64", Carried.classifier("Mac OS X", "aarch64"));
    assertEquals("osx-x86_64", Carried.classifier("Mac OS X", "x86_64"));
    assertEquals("windows-x86_64", Carried.classifier("Windows 11", "amd64"));
  }
}
