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

/** The kit's signer, schedule formatting and webhook matching against the repository's shared test vectors. */
class VectorsTest {
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> cases(String name) throws IOException {
    Path file = Path.of("..", "..", "test-vectors", name);
    return (List<Map<String, Object>>) ((Map<String, Object>) Json.parse(Files.readString(file))).get("cases");
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
