package dev.smsemulator.junit;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The emulator's control API, {@code <origin>/_emulator<path>}, one method per operation of its OpenAPI document,
 * named as {@code test-vectors/kit-contract.json} names it for Java ({@code messages.wait} is {@link #messagesWait}).
 * Answers are records; filters and bodies are maps of the documented fields; a duration may be a {@link Duration} or
 * the emulator's text ({@code "15m"}), an instant an {@link Instant} or ISO 8601 text. An error answer throws
 * {@link ControlException} with its catalogued code. docs/control-api.md describes each operation.
 */
public class Control {
  /** The control API's path under the emulator's origin. */
  public static final String PATH = "/_emulator";

  public final String origin;
  private final String token;

  /** A control client of the emulator at {@code origin}; {@code token} is its control token, or null. */
  public Control(String origin, String token) {
    this.origin = origin.replaceAll("/+$", "");
    this.token = token;
  }

  /** One path segment, percent-encoded. */
  public static String quote(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A query string ({@code ?a=1&b=x}) of the fields given, in their order; "" for none. */
  public static String query(Map<String, ?> fields) {
    if (fields == null || fields.isEmpty()) return "";
    StringJoiner joined = new StringJoiner("&", "?", "");
    fields.forEach((name, value) -> {
      if (value != null) joined.add(quote(name) + "=" + quote(String.valueOf(value)));
    });
    return joined.toString();
  }

  /** A duration as the emulator takes it: a Duration becomes milliseconds, text ("1h30m") stays. */
  public static Object duration(Object duration) {
    return duration instanceof Duration d ? d.toMillis() : duration;
  }

  /** An instant as the emulator takes it: ISO 8601 text. */
  public static String instant(Object instant) {
    return instant instanceof Instant i ? i.toString() : (String) instant;
  }

  /**
   * One control request: a JSON body (a Map or List), YAML/JSON text (a String), or none; answers the parsed JSON or
   * the text. A request that got no answer on a connection closed under it is sent once more (see {@code Http}).
   */
  public Object call(String method, String pathAndQuery, Object body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(origin + PATH + pathAndQuery)).timeout(Duration.ofSeconds(120));
    if (token != null && !token.isEmpty()) request.header("Authorization", "Bearer " + token);
    if (body == null) request.method(method, HttpRequest.BodyPublishers.noBody());
    else if (body instanceof String text)
      request.method(method, HttpRequest.BodyPublishers.ofString(text)).header("Content-Type", "application/yaml");
    else request.method(method, HttpRequest.BodyPublishers.ofString(Json.write(body))).header("Content-Type", "application/json");
    HttpResponse<String> answer;
    try {
      answer = Http.sendRetryingOnce(Http.CLIENT, request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new ControlException("NO_ANSWER", 0, Http.shownUrl(method + " " + PATH + pathAndQuery + ": " + e + " (is the emulator running at " + origin + "?)"), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ControlException("NO_ANSWER", 0, "interrupted", e);
    }
    String text = answer.body();
    boolean json = answer.headers().firstValue("content-type").orElse("").startsWith("application/json");
    Object parsed = text.isEmpty() ? null : json ? Json.parse(text) : text;
    int status = answer.statusCode();
    if (status >= 200 && status < 300) return parsed;
    if (parsed instanceof Map<?, ?> map) {
      Map<?, ?> failure = map.get("error") instanceof Map<?, ?> wrapped ? wrapped : map;
      if (failure.get("message") instanceof String code)
        throw new ControlException(code, status, String.valueOf(failure.get("description")), null);
    }
    throw new ControlException("UNEXPECTED_RESPONSE", status, method + " " + PATH + pathAndQuery + " answered " + status + ": " + text, null);
  }

  private <T> T call(Class<T> answer, String method, String path, Object body) {
    return Records.read(call(method, path, body), answer);
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> document(String method, String path, Object body) {
    return (Map<String, Object>) call(method, path, body);
  }

  private <T> Page<T> page(Class<T> item, String path, Map<String, ?> filter) {
    Map<?, ?> answer = (Map<?, ?>) call("GET", path + query(filter), null);
    return new Page<>(Records.readList(answer.get("items"), item), ((Number) answer.get("total")).longValue(),
        ((Number) answer.get("page")).intValue(), ((Number) answer.get("limit")).intValue());
  }

  private static Map<String, Object> fields(Object... pairs) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) if (pairs[i + 1] != null) map.put((String) pairs[i], pairs[i + 1]);
    return map;
  }

  // ---- health, limits and the main clock

  /** {@code GET /health}: {@code {"status": "ok"}} once the emulator answers. */
  public Status health() {
    return call(Status.class, "GET", "/health", null);
  }

  /** {@code GET /limits}: the limits applied, as started (batch limit and why, message length, body size). */
  public Limits limits() {
    return call(Limits.class, "GET", "/limits", null);
  }

  /**
   * {@code POST /receiver-check}: runs check-receiver against a webhook receiver and answers its report, when the run
   * ends: {@code receiver} (its URL), and optionally {@code state}, {@code receiverTimeout}, {@code only},
   * {@code skip}, {@code seed}, {@code at}, {@code signingSecret} (docs/webhooks.md). Needs an emulator that offers
   * the operation; {@link SmsWorld#checkReceiver} runs the emulator's CLI instead.
   */
  public ReceiverReport receiverCheck(Map<String, ?> check) {
    Map<String, Object> body = new LinkedHashMap<>(check);
    body.computeIfPresent("receiverTimeout", (name, value) -> duration(value));
    return call(ReceiverReport.class, "POST", "/receiver-check", body);
  }

  /** {@code GET /clock}: the main clock (now, time, mode, speed, pending tasks, incidents). */
  public ClockView clockState() {
    return call(ClockView.class, "GET", "/clock", null);
  }

  /**
   * {@code POST /clock}: moves the main clock; {@code command} holds {@code advance}, {@code set}, {@code mode},
   * {@code speed}, or {@code runUntilIdle} (with {@code limit}) or {@code next}.
   */
  public ClockView clockMove(Map<String, ?> command) {
    return call(ClockView.class, "POST", "/clock", command);
  }

  /** Shortcut of {@code clock.state}: the main clock's time. */
  public Instant clockNow() {
    return clockState().now();
  }

  /** Shortcut of {@code clock.move}: moves the main clock forward by a duration (a Duration, or text such as "15m"). */
  public ClockView clockAdvance(Object duration) {
    return clockMove(fields("advance", duration(duration)));
  }

  /** Shortcut of {@code clock.move}: sets the main clock to an instant (an Instant, or ISO 8601 text). */
  public ClockView clockSet(Object instant) {
    return clockMove(fields("set", instant(instant)));
  }

  /** Shortcut of {@code clock.move}: changes the main clock's {@code mode} ("manual", "realtime") and {@code speed}. */
  public ClockView clockConfigure(Map<String, ?> settings) {
    return clockMove(settings);
  }

  /** Shortcut of {@code clock.move}: runs the main clock until nothing is queued, or {@code limit} (null: none) passed. */
  public ClockView clockRunUntilIdle(Object limit) {
    return clockMove(fields("runUntilIdle", true, "limit", duration(limit)));
  }

  /** Shortcut of {@code clock.move}: runs the main clock to its next queued event. */
  public ClockView clockNext() {
    return clockMove(fields("next", true));
  }

  // ---- test clocks

  /** {@code GET /clocks}: every test clock, in creation order ({@code page}, {@code limit}). */
  public Page<ClockView> clocksList(Map<String, ?> filter) {
    return page(ClockView.class, "/clocks", filter);
  }

  /** {@code GET /clocks}: the first page of test clocks. */
  public Page<ClockView> clocksList() {
    return clocksList(Map.of());
  }

  /** {@code GET /clocks/{id}}: one test clock. */
  public ClockView clocksGet(String id) {
    return call(ClockView.class, "GET", "/clocks/" + quote(id), null);
  }

  /** {@code POST /clocks}: a test clock, frozen until moved: {@code startTime} (Instant or text) and {@code name}, both optional. */
  public ClockView clocksCreate(Map<String, ?> clock) {
    return call(ClockView.class, "POST", "/clocks", clock);
  }

  /** {@code POST /clocks/{id}}: moves a test clock ({@code advance}, {@code set}, {@code runUntilIdle} with {@code limit}, {@code next}). */
  public ClockView clocksMove(String id, Map<String, ?> command) {
    return call(ClockView.class, "POST", "/clocks/" + quote(id), command);
  }

  /** {@code DELETE /clocks/{id}}: deletes a test clock and every account on it, with what they hold. */
  public void clocksDelete(String id) {
    call("DELETE", "/clocks/" + quote(id), null);
  }

  /** Shortcut of {@code clocks.get}: a test clock's time. */
  public Instant clocksNow(String id) {
    return clocksGet(id).now();
  }

  /** Shortcut of {@code clocks.move}: moves a test clock forward by a duration (a Duration, or text such as "15m"). */
  public ClockView clocksAdvance(String id, Object duration) {
    return clocksMove(id, fields("advance", duration(duration)));
  }

  /** Shortcut of {@code clocks.move}: sets a test clock to an instant (an Instant, or ISO 8601 text). */
  public ClockView clocksSet(String id, Object instant) {
    return clocksMove(id, fields("set", instant(instant)));
  }

  /** Shortcut of {@code clocks.move}: runs a test clock until none of its tasks is queued, or {@code limit} (null: none) passed. */
  public ClockView clocksRunUntilIdle(String id, Object limit) {
    return clocksMove(id, fields("runUntilIdle", true, "limit", duration(limit)));
  }

  /** Shortcut of {@code clocks.move}: runs a test clock to its next queued event. */
  public ClockView clocksNext(String id) {
    return clocksMove(id, fields("next", true));
  }

  // ---- worlds

  /**
   * {@code POST /worlds}: a test clock, an account on it and its own scenario in one call: {@code name},
   * {@code startTime}, {@code account} (the account fields, {@code apiKey} drawn when absent), {@code scenario}.
   */
  public WorldView worldsCreate(Map<String, ?> world) {
    return call(WorldView.class, "POST", "/worlds", world);
  }

  // ---- accounts

  /** {@code GET /accounts}: every account, in creation order ({@code page}, {@code limit}). */
  public Page<Account> accountsList(Map<String, ?> filter) {
    return page(Account.class, "/accounts", filter);
  }

  /** {@code GET /accounts/{key}}: one account. */
  public Account accountsGet(String key) {
    return call(Account.class, "GET", "/accounts/" + quote(key), null);
  }

  /** {@code POST /accounts}: an account ({@code apiKey}, {@code signingSecret}, balances, webhook URLs, {@code scopes}, {@code clock}). */
  public Account accountsCreate(Map<String, ?> account) {
    return call(Account.class, "POST", "/accounts", account);
  }

  /** {@code PATCH /accounts/{key}}: {@code signingSecret}, {@code scopes}, and per environment ({@code live}, {@code sandbox}) {@code balance}, {@code addBalance}, {@code webhookUrl}. */
  public Account accountsUpdate(String key, Map<String, ?> change) {
    return call(Account.class, "PATCH", "/accounts/" + quote(key), change);
  }

  /** {@code DELETE /accounts/{key}}: removes the account with its messages and log entries. */
  public void accountsDelete(String key) {
    call("DELETE", "/accounts/" + quote(key), null);
  }

  /** {@code GET /accounts/{key}/scenario}: the account's own scenario, defaults filled in. */
  public Map<String, Object> accountsGetScenario(String key) {
    return document("GET", "/accounts/" + quote(key) + "/scenario", null);
  }

  /** {@code PUT /accounts/{key}/scenario}: the account's own scenario (a Map, or YAML/JSON text). */
  public Map<String, Object> accountsSetScenario(String key, Object scenario) {
    return document("PUT", "/accounts/" + quote(key) + "/scenario", scenario);
  }

  /** {@code PUT /accounts/{key}/scenario/bundled/{name}}: a bundled scenario as the account's own. */
  public Map<String, Object> accountsUseBundledScenario(String key, String name) {
    return document("PUT", "/accounts/" + quote(key) + "/scenario/bundled/" + quote(name), null);
  }

  /** {@code DELETE /accounts/{key}/scenario}: removes the account's own scenario. */
  public void accountsClearScenario(String key) {
    call("DELETE", "/accounts/" + quote(key) + "/scenario", null);
  }

  // ---- messages and replies

  /** {@code GET /messages}: messages with legs and history, newest first ({@code environment}, {@code account}, {@code status}, {@code recipient}, {@code clientReference}, {@code page}, {@code limit}). */
  public Page<ControlMessage> messagesList(Map<String, ?> filter) {
    return page(ControlMessage.class, "/messages", filter);
  }

  /** {@code GET /messages/{id}}: one message with legs, history and upcoming changes. */
  public ControlMessage messagesGet(String id) {
    return call(ControlMessage.class, "GET", "/messages/" + quote(id), null);
  }

  /** {@code POST /messages/{id}/status}: forces an outcome now ({@code status}, optional {@code recipient}); answers after the webhooks were tried. */
  public ControlMessage messagesForceStatus(String id, Map<String, ?> outcome) {
    return call(ControlMessage.class, "POST", "/messages/" + quote(id) + "/status", outcome);
  }

  /** {@code POST /messages/{id}/status} with a status for every open leg. */
  public ControlMessage messagesForceStatus(String id, String status) {
    return messagesForceStatus(id, Map.of("status", status));
  }

  /**
   * {@code POST /messages/{id}/wait}: moves the message's clock to each of its next changes until it has {@code status}
   * and its webhooks were tried, within {@code within} (a Duration or text; null: 1h); CONTROL_WAIT_FAILED otherwise.
   */
  public WaitResult messagesWait(String id, String status, Object within) {
    return messagesWait(id, fields("status", status, "within", duration(within)));
  }

  /** {@code POST /messages/{id}/wait} with the body as a map ({@code status}, {@code within}). */
  public WaitResult messagesWait(String id, Map<String, ?> wait) {
    return call(WaitResult.class, "POST", "/messages/" + quote(id) + "/wait", wait);
  }

  /** {@code POST /messages/{id}/replies}: an inbound reply ({@code from}, default the first recipient; {@code text}); answers after its webhook was tried. */
  public ControlMessage repliesInject(String id, Map<String, ?> reply) {
    return call(ControlMessage.class, "POST", "/messages/" + quote(id) + "/replies", reply);
  }

  /** {@code GET /replies}: inbound replies, oldest first ({@code environment}, {@code account}). */
  public Page<ControlMessage> repliesList(Map<String, ?> filter) {
    return page(ControlMessage.class, "/replies", filter);
  }

  // ---- webhooks

  /** {@code GET /webhooks}: the webhook log, oldest first ({@code account}, {@code environment}, {@code message}, {@code state}). */
  public Page<WebhookEvent> webhooksList(Map<String, ?> filter) {
    return page(WebhookEvent.class, "/webhooks", filter);
  }

  /** {@code GET /webhooks/{id}}: one webhook event with its tries. */
  public WebhookEvent webhooksGet(String id) {
    return call(WebhookEvent.class, "GET", "/webhooks/" + quote(id), null);
  }

  /** {@code POST /webhooks/{id}/redeliver}: posts the event again to the account's current URL; answers once its tries end. */
  public WebhookEvent webhooksRedeliver(String id) {
    return call(WebhookEvent.class, "POST", "/webhooks/" + quote(id) + "/redeliver", null);
  }

  /** {@code POST /webhooks/settle}: once every webhook try under way or due has ended; {@code account} (or null) narrows it to that account's clock. */
  public Status webhooksSettled(String account) {
    return call(Status.class, "POST", "/webhooks/settle", fields("account", account));
  }

  /** {@code GET /webhooks/chaos}: the delivery-behaviour rates in force. */
  public Chaos webhooksChaos() {
    return call(Chaos.class, "GET", "/webhooks/chaos", null);
  }

  /** {@code POST /webhooks/chaos}: changes the delivery-behaviour rates ({@code duplicateRate}, {@code delayRate}, {@code reorderRate}, {@code delay}); fields left out keep their value. */
  public Chaos webhooksSetChaos(Map<String, ?> chaos) {
    Map<String, Object> body = new LinkedHashMap<>(chaos);
    body.computeIfPresent("delay", (name, value) -> duration(value));
    return call(Chaos.class, "POST", "/webhooks/chaos", body);
  }

  // ---- the emulator's scenario

  /** {@code GET /scenario}: the active scenario, defaults filled in. */
  public Map<String, Object> scenarioGet() {
    return document("GET", "/scenario", null);
  }

  /** {@code PUT /scenario}: replaces the active scenario (a Map, or YAML/JSON text). */
  public Map<String, Object> scenarioSet(Object scenario) {
    return document("PUT", "/scenario", scenario);
  }

  /** {@code GET /scenario/bundled}: the bundled scenarios, {@code {"scenarios": [{name, description}, …]}}. */
  public Map<String, Object> scenarioBundled() {
    return document("GET", "/scenario/bundled", null);
  }

  /** {@code PUT /scenario/bundled/{name}}: makes a bundled scenario the active one. */
  public Map<String, Object> scenarioUseBundled(String name) {
    return document("PUT", "/scenario/bundled/" + quote(name), null);
  }

  // ---- opt-outs

  /** {@code GET /opt-outs}: numbers opted out of an {@code account} in an {@code environment} (default live). */
  public Page<String> optOutsList(Map<String, ?> target) {
    return page(String.class, "/opt-outs", target);
  }

  /** {@code PUT /opt-outs/{number}}: opts a number out ({@code account}, {@code environment}). */
  public OptOut optOutsAdd(String number, Map<String, ?> target) {
    return call(OptOut.class, "PUT", "/opt-outs/" + quote(number) + query(target), null);
  }

  /** {@code DELETE /opt-outs/{number}}: opts a number back in ({@code account}, {@code environment}). */
  public OptOut optOutsRemove(String number, Map<String, ?> target) {
    return call(OptOut.class, "DELETE", "/opt-outs/" + quote(number) + query(target), null);
  }

  // ---- the request journal

  /** {@code GET /requests}: the request journal, newest first ({@code account}, {@code environment}, {@code method}, {@code path}, {@code status}, {@code code}, {@code since}, {@code message}). */
  public Page<JournalEntry> requestsFind(Map<String, ?> filter) {
    return page(JournalEntry.class, "/requests", filter);
  }

  /** {@code GET /requests/count}: how many journal entries match the same filters. */
  public long requestsCount(Map<String, ?> filter) {
    return ((Number) call("GET", "/requests/count" + query(filter), null)).longValue();
  }

  // ---- signing, reset, snapshots

  /** {@code POST /sign}: the canonical string and signature of {@code fields} with the secret of {@code account} (null: the default account). */
  public SignatureResult sign(Map<String, ?> fields, String account) {
    return call(SignatureResult.class, "POST", "/sign" + query(fields("account", account)), fields);
  }

  /** {@code POST /reset}: back to the start-up state; {@code account} (or null) resets that account only. */
  public Status reset(String account) {
    return call(Status.class, "POST", "/reset", fields("account", account));
  }

  /** {@code GET /snapshot}: the whole state as JSON. */
  public Map<String, Object> snapshot() {
    return document("GET", "/snapshot", null);
  }

  /** {@code PUT /snapshot}: replaces the whole state with a snapshot; a bad one changes nothing. */
  public Status restore(Map<String, ?> snapshot) {
    return call(Status.class, "PUT", "/snapshot", snapshot);
  }

  /** The bodies of list operations are maps: this one is empty, for "no filter". */
  public static Map<String, Object> none() {
    return Map.of();
  }

}
