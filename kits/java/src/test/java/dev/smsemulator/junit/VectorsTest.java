package dev.smsemulator.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The kit's signer, schedule formatting and webhook matching against the repository's shared test vectors, read as the
 * jar carries them ({@link TestVectors}): the same bytes as the repository's files; and every text of
 * {@code segments.json} carried to the run's emulator and counted there as the vectors say.
 */
@SmsEmulatorTest
class VectorsTest {
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> cases(String name) throws IOException {
    return (List<Map<String, Object>>) ((Map<String, Object>) TestVectors.read(name)).get("cases");
  }

  @TestFactory
  Stream<DynamicTest> theJarCarriesEveryFileOfTheRepositorysTestVectors() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("..", "..", "test-vectors"))) {
      List<Path> json = files.filter(file -> file.toString().endsWith(".json")).sorted().toList();
      return json.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(),
          () -> assertEquals(Json.parse(Files.readString(file)), TestVectors.read(file.getFileName().toString()))));
    }
  }

  @TestFactory
  @SuppressWarnings("unchecked")
  Stream<DynamicTest> signingVectors() throws IOException {
    return cases("signing.json").stream().map(c -> DynamicTest.dynamicTest((String) c.get("name"), () -> {
      Map<String, Object> fields = (Map<String, Object>) c.get("fields");
      assertEquals(c.get("canonical"), Signing.canonicalString(fields));
      assertEquals(c.get("signature"), Signing.sign(fields, (String) c.get("secret")));
    }));
  }

  @TestFactory
  Stream<DynamicTest> scheduleVectors() throws IOException {
    return cases("schedule.json").stream().map(c -> DynamicTest.dynamicTest((String) c.get("name"), () ->
        assertEquals(c.get("schedule"), Schedule.format(Instant.parse((String) c.get("instant")), (String) c.get("offset")))));
  }

  /**
   * The kit counts no segments itself (docs/cost-checks.md): it carries each text to the emulator's {@code cost} and
   * back, so a text the kit's JSON mangles (a surrogate pair, a decomposed accent, CRLF, an escape) miscounts here.
   */
  @TestFactory
  Stream<DynamicTest> segmentVectorsAreCountedAsTheEmulatorChargesThem(Emulator emulator) throws IOException {
    return cases("segments.json").stream().map(c -> DynamicTest.dynamicTest((String) c.get("name"), () -> {
      CostExplanation why = emulator.control.cost((String) c.get("text"));
      assertEquals(List.of(c.get("encoding"), c.get("units"), c.get("segments")), List.of(why.encoding(), why.units(), why.segments()),
          c.get("name") + ": encoding, units, segments");
      assertEquals(c.get("ucs2Trigger"), why.triggers().isEmpty() ? null : why.triggers().get(0).character(), "the first character that forced UCS-2");
    }));
  }

  @TestFactory
  @SuppressWarnings("unchecked")
  Stream<DynamicTest> webhookVectorsAreFoundByTheirOwnFields() throws IOException {
    Map<String, Object> other = Map.of("type", "sms", "id", "another", "status", "delivered", "recipient", List.of("27830000009"), "message", "x");
    return cases("webhooks.json").stream().map(c -> DynamicTest.dynamicTest((String) c.get("name"), () -> {
      Map<String, Object> p = (Map<String, Object>) c.get("payload");
      String recipient = (String) ((List<Object>) p.get("recipient")).get(0);
      assertSame(p, SmsWorld.findWebhook(List.of(other, p), (String) p.get("id"), (String) p.get("status"), (String) p.get("type"), recipient, (String) p.get("message")));
    }));
  }
}
