package smsemulator.junit;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/** One test's world: an account on its own test clock, a signing client, a webhook catcher, and what to assert with. */
public final class SmsWorld implements AutoCloseable {
  public final Emulator emulator;
  public final String apiKey = "pk_test_" + UUID.randomUUID().toString().replace("-", "");
  public final String signingSecret = "sk_test_" + UUID.randomUUID().toString().replace("-", "");
  public final String baseUrl;
  public final SmsClient client;
  public final WorldClock clock;
  public final Catcher catcher;

  /** Makes the world in one control call (`POST /_emulator/worlds`); close() deletes it. */
  public SmsWorld(Emulator emulator, String name) {
    this.emulator = emulator;
    this.catcher = new Catcher(apiKey);
    Map<String, Object> account = new LinkedHashMap<>();
    account.put("apiKey", apiKey);
    account.put("signingSecret", signingSecret);
    account.put("webhookUrl", catcher.url);
    account.put("sandboxWebhookUrl", catcher.url);
    Map<String, Object> body = new LinkedHashMap<>();
    if (!name.isEmpty()) body.put("name", name.length() > 200 ? name.substring(0, 200) : name);
    body.put("account", account);
    Map<?, ?> created;
    try {
      created = (Map<?, ?>) emulator.control.call("POST", "/worlds", body);
    } catch (RuntimeException e) {
      catcher.close();
      throw e;
    }
    Map<?, ?> view = (Map<?, ?>) created.get("clock");
    this.clock = new WorldClock(emulator.control, (String) view.get("id"), ((Number) view.get("now")).longValue());
    this.baseUrl = emulator.origin;
    this.client = new SmsClient(emulator.origin, apiKey, signingSecret);
  }

  public Instant now() {
    return clock.now();
  }

  /**
   * Moves the test's clock to each of the message's next changes until it has the status and its webhooks were tried;
   * throws AssertionError with the message's history when it ends otherwise or `within` ("1h") passes first.
   */
  @SuppressWarnings("unchecked")
  public Map<String, Object> waitFor(String id, String status, String within) {
    Map<String, Object> answer;
    try {
      answer = (Map<String, Object>) emulator.control.call("POST", "/messages/" + Control.quote(id) + "/wait", Map.of("status", status, "within", within));
    } catch (ControlException e) {
      if (e.code.equals("CONTROL_WAIT_FAILED")) throw new AssertionError("sms-emulator: " + e.description);
      throw e;
    }
    clock.track(((Number) ((Map<?, ?>) answer.get("clock")).get("now")).longValue());
    return (Map<String, Object>) answer.get("message");
  }

  public Map<String, Object> waitFor(String id, String status) {
    return waitFor(id, status, "1h");
  }

  /** Gives the account its own scenario (rules, replies, faults): a Map, or YAML/JSON text. */
  public void scenario(Object scenario) {
    emulator.control.call("PUT", "/accounts/" + Control.quote(apiKey) + "/scenario", scenario);
  }

  /** Gives the account a bundled scenario by name ("degraded-api", "rate-limited", ...). */
  public void useBundledScenario(String name) {
    emulator.control.call("PUT", "/accounts/" + Control.quote(apiKey) + "/scenario/bundled/" + Control.quote(name), null);
  }

  /** The account's messages with their legs and history, newest first. */
  @SuppressWarnings("unchecked")
  public List<Map<String, Object>> messages() {
    Map<?, ?> page = (Map<?, ?>) emulator.control.call("GET", "/messages?limit=1000&account=" + URLEncoder.encode(apiKey, StandardCharsets.UTF_8), null);
    return (List<Map<String, Object>>) page.get("items");
  }

  /** Every payload the emulator posted to the test's catcher, in order. */
  public List<Map<String, Object>> webhooks() {
    List<Map<String, Object>> payloads = new ArrayList<>();
    for (Catcher.Caught caught : catcher.received()) payloads.add(caught.json());
    return payloads;
  }

  /** The first payload whose given fields (null: any) all match; `text` is the payload's message. */
  public static Map<String, Object> findWebhook(List<Map<String, Object>> payloads, String id, String status, String type, String recipient, String text) {
    for (Map<String, Object> payload : payloads) {
      if ((id == null || id.equals(payload.get("id")))
          && (status == null || status.equals(payload.get("status")))
          && (type == null || type.equals(payload.get("type")))
          && (text == null || text.equals(payload.get("message")))
          && (recipient == null || payload.get("recipient") instanceof List<?> list && list.contains(recipient))) return payload;
    }
    return null;
  }

  /** Throws AssertionError, listing what was received, unless a payload with this id and status reached the catcher. */
  public Map<String, Object> assertWebhook(String id, String status) {
    List<Map<String, Object>> payloads = webhooks();
    Map<String, Object> found = findWebhook(payloads, id, status, null, null, null);
    if (found != null) return found;
    StringBuilder shown = new StringBuilder();
    for (Map<String, Object> p : payloads) shown.append("\n  ").append(p.get("type")).append(' ').append(p.get("id")).append(' ').append(p.get("status"));
    throw new AssertionError("no webhook matches id=" + id + " status=" + status + "; received:" + (shown.length() == 0 ? " none" : shown));
  }

  /** Throws AssertionError, listing what was sent, unless the account sent a message to `to` whose text contains `text`. */
  public Map<String, Object> assertSent(String to, String text) {
    List<Map<String, Object>> sent = messages();
    StringBuilder shown = new StringBuilder();
    for (Map<String, Object> message : sent) {
      String body = Objects.toString(message.get("message"), "");
      if ((to == null || ((List<?>) message.get("recipient")).contains(to)) && body.contains(text)) return message;
      shown.append("\n  ").append(message.get("status")).append(" to ").append(message.get("recipient")).append(": ").append(body);
    }
    throw new AssertionError("no message sent matches to=" + to + " text=" + text + "; sent:" + (shown.length() == 0 ? " none" : shown));
  }

  /** The account's timeline report (HTML): every request, message change, webhook try and reply, with times. */
  public String reportHtml() {
    return (String) emulator.control.call("GET", "/report?account=" + URLEncoder.encode(apiKey, StandardCharsets.UTF_8), null);
  }

  /** Deletes the test's clock, and with it the account and its messages; stops the catcher. */
  @Override
  public void close() {
    try {
      emulator.control.call("DELETE", "/clocks/" + Control.quote(clock.id), null);
    } catch (ControlException e) {
      // The test may have deleted its clock itself, or reset the emulator.
      if (!e.code.equals("CONTROL_NOT_FOUND")) throw e;
    } finally {
      catcher.close();
    }
  }
}
