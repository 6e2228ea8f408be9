package dev.smsemulator.junit;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * One test's world ({@code POST /_emulator/worlds}): an account on its own test clock with its own signing secret,
 * start time, balances, scopes and scenario; a signing client of its environment; a webhook catcher that keeps a copy
 * of every post (and forwards it to the app's own handler when given one); and what to assert with. {@link #close()}
 * deletes it all. Make one with the extension's parameter ({@link SmsEmulatorTest}, settings by {@link WorldSettings})
 * or {@link #builder()}.
 */
public final class SmsWorld implements AutoCloseable {
  /** The emulator the world lives on. */
  public final Emulator emulator;
  /** The account's API key. */
  public final String apiKey;
  /** The account's own API signing secret: the world's client (and the app) sign their requests with it. */
  public final String signingSecret;
  /**
   * The world's own webhook signing secret: the emulator signs each webhook to the world with it
   * ({@code Webhook-Signature}, hex HMAC-SHA256 of the body), and the world's catcher keeps only posts it signed.
   */
  public final String webhookSigningSecret;
  /** The environment the world's client talks to: live or sandbox. */
  public final String environment;
  /** The emulator's origin; the app's base URL for the API is {@link #apiBaseUrl}. */
  public final String baseUrl;
  /** The API's base URL in the world's environment: {@code <origin>/v1} or {@code <origin>/sandbox/v1}. */
  public final String apiBaseUrl;
  /** A client that signs with the world's secret, in the world's environment. */
  public final SmsClient client;
  /** The world's own clock. */
  public final WorldClock clock;
  /** The world's webhook receiver: a copy of every post, and the app's handler when given one. */
  public final Catcher catcher;
  /** The account as the world was made. */
  public final Account account;

  /** The settings of a world to make; {@link #create(Emulator)} makes it. */
  public static final class Builder {
    private String name = "";
    private String signingSecret;
    private String webhookSigningSecret;
    private String startTime;
    private Long balance;
    private Long sandboxBalance;
    private String environment = "live";
    private List<String> scopes;
    private Object scenario;
    private String bundledScenario;
    private WebhookHandler handler;
    private URI appUrl;

    private Builder() {}

    /** The world clock's name, shown in the inbox and reports. */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /** The account's signing secret (default: one drawn for the world). */
    public Builder signingSecret(String secret) {
      this.signingSecret = secret;
      return this;
    }

    /** The world's webhook signing secret (default: one the emulator draws for the world, {@code whsec_…}). */
    public Builder webhookSigningSecret(String secret) {
      this.webhookSigningSecret = secret;
      return this;
    }

    /** The world clock's start. */
    public Builder startTime(Instant start) {
      this.startTime = start.toString();
      return this;
    }

    /** The world clock's start as ISO 8601 text ({@code 2026-11-23T09:00:00+02:00}). */
    public Builder startTime(String start) {
      this.startTime = start;
      return this;
    }

    /** The live balance in credits. */
    public Builder balance(long credits) {
      this.balance = credits;
      return this;
    }

    /** The sandbox balance in credits. */
    public Builder sandboxBalance(long credits) {
      this.sandboxBalance = credits;
      return this;
    }

    /** The environment the world's client talks to: {@code live} or {@code sandbox}. */
    public Builder environment(String environment) {
      if (!SmsClient.API_PATHS.containsKey(environment)) throw new IllegalArgumentException("environment must be live or sandbox, not " + environment);
      this.environment = environment;
      return this;
    }

    /** The account's scopes ({@code balance}, {@code send}, {@code read}, {@code edit}, {@code delete}). */
    public Builder scopes(String... scopes) {
      this.scopes = List.of(scopes);
      return this;
    }

    /** The account's own scenario: a Map, or YAML/JSON text. */
    public Builder scenario(Object scenario) {
      this.scenario = scenario;
      return this;
    }

    /** A bundled scenario by name as the account's own. */
    public Builder bundledScenario(String name) {
      this.bundledScenario = name;
      return this;
    }

    /** The app's own handler, in this JVM: each post goes to it, the emulator gets its reply. */
    public Builder forwardTo(WebhookHandler handler) {
      this.handler = handler;
      return this;
    }

    /** The app's own webhook URL: each post goes there unchanged, the emulator gets the app's answer. */
    public Builder forwardTo(URI url) {
      this.appUrl = url;
      return this;
    }

    Builder apply(WorldSettings settings) {
      if (settings == null) return this;
      if (!settings.signingSecret().isEmpty()) signingSecret(settings.signingSecret());
      if (!settings.webhookSigningSecret().isEmpty()) webhookSigningSecret(settings.webhookSigningSecret());
      if (!settings.startTime().isEmpty()) startTime(settings.startTime());
      if (settings.balance() >= 0) balance(settings.balance());
      if (settings.sandboxBalance() >= 0) sandboxBalance(settings.sandboxBalance());
      environment(settings.environment());
      if (settings.scopes().length > 0) scopes(settings.scopes());
      if (!settings.scenario().isEmpty()) scenario(settings.scenario());
      if (!settings.bundledScenario().isEmpty()) bundledScenario(settings.bundledScenario());
      if (!settings.appWebhookUrl().isEmpty()) forwardTo(URI.create(settings.appWebhookUrl()));
      return this;
    }

    /** Makes the world on the emulator in one control call; close() deletes it. */
    public SmsWorld create(Emulator emulator) {
      return new SmsWorld(emulator, this);
    }
  }

  /** The settings of a new world, all optional. */
  public static Builder builder() {
    return new Builder();
  }

  /** A world of the kit's defaults. */
  public SmsWorld(Emulator emulator, String name) {
    this(emulator, builder().name(name));
  }

  private SmsWorld(Emulator emulator, Builder settings) {
    this.emulator = emulator;
    String drawn = UUID.randomUUID().toString().replace("-", "");
    this.apiKey = "pk_test_" + drawn;
    this.signingSecret = settings.signingSecret != null ? settings.signingSecret : "sk_test_" + drawn;
    this.environment = settings.environment;
    this.catcher = new Catcher(apiKey, emulator.webhookHost);
    if (settings.handler != null) catcher.forwardTo(settings.handler);
    else if (settings.appUrl != null) catcher.forwardTo(settings.appUrl);
    Map<String, Object> account = new LinkedHashMap<>();
    account.put("apiKey", apiKey);
    account.put("signingSecret", signingSecret);
    if (settings.webhookSigningSecret != null) account.put("webhookSigningSecret", settings.webhookSigningSecret);
    account.put("webhookUrl", catcher.url);
    account.put("sandboxWebhookUrl", catcher.url);
    if (settings.balance != null) account.put("balance", settings.balance);
    if (settings.sandboxBalance != null) account.put("sandboxBalance", settings.sandboxBalance);
    if (settings.scopes != null) account.put("scopes", settings.scopes);
    Map<String, Object> body = new LinkedHashMap<>();
    String name = settings.name;
    if (!name.isEmpty()) body.put("name", name.length() > 200 ? name.substring(0, 200) : name);
    if (settings.startTime != null) body.put("startTime", settings.startTime);
    body.put("account", account);
    if (settings.scenario != null) body.put("scenario", settings.scenario);
    WorldView created;
    try {
      created = emulator.control.worldsCreate(body);
    } catch (RuntimeException e) {
      catcher.close();
      throw e;
    }
    this.account = created.account();
    this.webhookSigningSecret = created.account().webhookSigningSecret();
    this.clock = new WorldClock(emulator.control, created.clock().id(), created.clock().now().toEpochMilli());
    if (webhookSigningSecret == null) {
      close();
      throw new IllegalStateException(KitSettings.ERROR_PREFIX + "the emulator gave the world no webhook signing secret, so its "
          + "catcher could not tell its webhooks from forged ones: is it older than this kit (" + Carried.version() + ")?");
    }
    catcher.verifyWith(webhookSigningSecret);
    this.baseUrl = emulator.origin;
    this.client = new SmsClient(emulator.origin, apiKey, signingSecret, environment);
    this.apiBaseUrl = client.baseUrl();
    if (settings.bundledScenario != null) {
      try {
        useBundledScenario(settings.bundledScenario);
      } catch (RuntimeException e) {
        close();
        throw e;
      }
    }
  }

  /** The emulator's control API, every operation. */
  public Control control() {
    return emulator.control;
  }

  /** The world clock's time. */
  public Instant now() {
    return clock.now();
  }

  /**
   * Moves the world's clock to each of the message's next changes until it has the status and its webhooks were tried
   * (so the catcher holds them); throws AssertionError with the message's history when it ends otherwise or
   * {@code within} (a Duration, or text such as "1h") passes first, and at once, naming the answers, when the app (or
   * {@link Catcher#respondWith}) refused every try of one of the message's webhooks (the emulator's
   * {@code CONTROL_WEBHOOK_REFUSED}).
   */
  public ControlMessage waitFor(String id, String status, Object within) {
    WaitResult answer;
    try {
      answer = emulator.control.messagesWait(id, status, within);
    } catch (ControlException e) {
      // The emulator's wait fails with the message's history, or with the answers when the app refused every try.
      if (e.code.equals("CONTROL_WAIT_FAILED") || e.code.equals("CONTROL_WEBHOOK_REFUSED"))
        throw new AssertionError(KitSettings.ERROR_PREFIX + e.description);
      throw e;
    }
    clock.track(answer.clock().now().toEpochMilli());
    return answer.message();
  }

  /** {@link #waitFor(String, String, Object)} within {@link KitSettings#WAIT_WITHIN} of the world's time (the contract's {@code waitWithin}). */
  public ControlMessage waitFor(String id, String status) {
    return waitFor(id, status, KitSettings.WAIT_WITHIN);
  }

  /** Gives the account its own scenario (rules, replies, faults): a Map, or YAML/JSON text; answers it, defaults filled in. */
  public Map<String, Object> scenario(Object scenario) {
    return emulator.control.accountsSetScenario(apiKey, scenario);
  }

  /** Gives the account a bundled scenario by name ("degraded-api", "rate-limited", ...); answers it. */
  public Map<String, Object> useBundledScenario(String name) {
    return emulator.control.accountsUseBundledScenario(apiKey, name);
  }

  /** From now on each post goes to the app's handler in this JVM and the emulator gets its reply; the world keeps a copy. */
  public void forwardTo(WebhookHandler handler) {
    catcher.forwardTo(handler);
  }

  /** From now on each post goes to the app's own webhook URL and the emulator gets its answer; the world keeps a copy. */
  public void forwardTo(URI url) {
    catcher.forwardTo(url);
  }

  /** The account as it is now (balances, webhook URLs, opt-outs). */
  public Account account() {
    return emulator.control.accountsGet(apiKey);
  }

  /** The account's messages (both environments) with their legs and history, newest first. */
  public List<ControlMessage> messages() {
    return messages(Map.of());
  }

  /**
   * The account's messages matching a filter of the control API's message list ({@code environment}, {@code status},
   * {@code recipient}, {@code clientReference}), newest first, up to 1,000.
   */
  public List<ControlMessage> messages(Map<String, ?> filter) {
    Map<String, Object> query = new LinkedHashMap<>(filter);
    query.put("account", apiKey);
    query.putIfAbsent("limit", 1000);
    return emulator.control.messagesList(query).items();
  }

  /**
   * The newest of the account's messages sent with this {@code client_reference} (exact), as the app would find its own
   * message by its order number; empty when none was.
   */
  public Optional<ControlMessage> messageByReference(String clientReference) {
    return messages(Map.of("clientReference", clientReference, "limit", 1)).stream().findFirst();
  }

  /** Injects an inbound reply with this text to a sent message, from its first recipient; answers after its webhook was tried. */
  public ControlMessage reply(String messageId, String text) {
    return emulator.control.repliesInject(messageId, text);
  }

  /**
   * Injects an inbound reply with this text to a sent message, from {@code from}; answers after its webhook was tried.
   * The text comes first, as in every kit; the sender is a {@link Sender}, so it cannot be mistaken for the text.
   */
  public ControlMessage reply(String messageId, String text, Sender from) {
    return emulator.control.repliesInject(messageId, text, from.number());
  }

  /** Opts a number out of the account in the world's environment; answers the opt-out. */
  public OptOut optOut(String number) {
    return optOut(number, environment);
  }

  /** Opts a number out of the account in an environment ({@code live} or {@code sandbox}); answers the opt-out. */
  public OptOut optOut(String number, String environment) {
    return emulator.control.optOutsAdd(number, Map.of("account", apiKey, "environment", environment));
  }

  /** The account's balance in the world's environment, in credits. */
  public long balance() {
    return balance(environment);
  }

  /** The account's balance in an environment ({@code live} or {@code sandbox}), in credits. */
  public long balance(String environment) {
    Account now = account();
    return switch (environment) {
      case "live" -> now.live().balance();
      case "sandbox" -> now.sandbox().balance();
      default -> throw new IllegalArgumentException(KitSettings.ERROR_PREFIX + "environment must be live or sandbox, not " + environment);
    };
  }

  /** The emulator's webhook log of this account: every event with every try, oldest first. */
  public List<WebhookEvent> webhookLog() {
    return webhookLog(Map.of());
  }

  /**
   * The emulator's webhook log of this account matching a filter ({@code environment}, {@code message}, {@code state}),
   * oldest first, up to 1,000.
   */
  public List<WebhookEvent> webhookLog(Map<String, ?> filter) {
    Map<String, Object> query = new LinkedHashMap<>(filter);
    query.put("account", apiKey);
    query.putIfAbsent("limit", 1000);
    return emulator.control.webhooksList(query).items();
  }

  /**
   * The posts the world's catcher refused, the first {@value Catcher#REFUSED_KEPT}: each answered 401 (no valid
   * {@code Webhook-Signature} for the world's webhook secret: not the emulator's) or 413 (larger than
   * {@link KitSettings#WEBHOOK_BODY_LIMIT}), never among {@link #received()} nor forwarded to the app.
   */
  public List<Webhook> refusedWebhooks() {
    return catcher.refused();
  }

  /** Every post the emulator made to the world (signature verified), as it arrived, with the status it was answered with. */
  public List<Webhook> received() {
    return catcher.received();
  }

  /** Every payload posted to the world's catcher, in order. */
  public List<Map<String, Object>> webhooks() {
    List<Map<String, Object>> payloads = new ArrayList<>();
    for (Webhook webhook : catcher.received()) payloads.add(webhook.json());
    return payloads;
  }

  /** The first payload whose given fields (null: any) all match; {@code text} is the payload's message. */
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

  /** Throws AssertionError, listing what was sent, unless the account sent a message to {@code to} whose text contains {@code text}. */
  public ControlMessage assertSent(String to, String text) {
    List<ControlMessage> sent = messages();
    StringBuilder shown = new StringBuilder();
    for (ControlMessage message : sent) {
      String body = Objects.toString(message.message(), "");
      if ((to == null || message.recipient().contains(to)) && body.contains(text)) return message;
      shown.append("\n  ").append(message.status()).append(" to ").append(message.recipient()).append(": ").append(body);
    }
    throw new AssertionError("no message sent matches to=" + to + " text=" + text + "; sent:" + (shown.length() == 0 ? " none" : shown));
  }

  /**
   * What the world's account spent so far, both environments: the credits, how many messages, and the five costliest,
   * each in one line saying why it cost that ({@code summary} is the whole, as a failure shows it).
   */
  public Spend spend() {
    return emulator.control.accountsSpend(apiKey);
  }

  /**
   * Throws AssertionError unless the text stays GSM-7, with the emulator's breakdown: the encoding, units and segments,
   * each character that forced UCS-2 with its position, code point and what was usually meant, and what the text
   * costs with those replaced. Answers why the text costs what it costs.
   */
  public CostExplanation assertStaysGsm7(String text) {
    CostExplanation why = emulator.control.cost(text);
    if (!why.encoding().equals("GSM-7")) throw new AssertionError("expected the text to stay GSM-7; it is " + why.breakdown());
    return why;
  }

  /** {@link #assertStaysGsm7(String)} of a sent message's text (the API's answer). */
  public CostExplanation assertStaysGsm7(Message message) {
    return assertStaysGsm7(message.message());
  }

  /** {@link #assertStaysGsm7(String)} of a message's text (the control API's view). */
  public CostExplanation assertStaysGsm7(ControlMessage message) {
    return assertStaysGsm7(message.message());
  }

  /**
   * Throws AssertionError unless the text is sent in at most {@code segments} parts, with the emulator's breakdown
   * (as {@link #assertStaysGsm7(String)}). Answers why the text costs what it costs.
   */
  public CostExplanation assertFitsSegments(String text, int segments) {
    if (segments < 1) throw new IllegalArgumentException(KitSettings.ERROR_PREFIX + "assertFitsSegments takes segments from 1, not " + segments);
    CostExplanation why = emulator.control.cost(text);
    if (why.segments() > segments)
      throw new AssertionError("expected the text to fit " + Plural.of(segments, "segment") + "; it is " + why.breakdown());
    return why;
  }

  /** {@link #assertFitsSegments(String, int)} of a sent message's text (the API's answer). */
  public CostExplanation assertFitsSegments(Message message, int segments) {
    return assertFitsSegments(message.message(), segments);
  }

  /** {@link #assertFitsSegments(String, int)} of a message's text (the control API's view). */
  public CostExplanation assertFitsSegments(ControlMessage message, int segments) {
    return assertFitsSegments(message.message(), segments);
  }

  /**
   * Throws AssertionError unless the world's account spent at most {@code credits} so far (both environments), naming
   * the top spenders, each with its credits, recipients, encoding, segments and the character that forced UCS-2.
   * Answers the spend. {@link CostBudget} checks the same at a test's end.
   */
  public Spend assertCostAtMost(long credits) {
    if (credits < 0) throw new IllegalArgumentException(KitSettings.ERROR_PREFIX + "assertCostAtMost takes credits from 0, not " + credits);
    Spend spent = spend();
    String failure = overBudget(spent, credits, "account " + apiKey);
    if (failure != null) throw new AssertionError(failure);
    return spent;
  }

  /** Why a spend is over a budget of {@code credits} ({@code expected <whose> to cost at most …; it spent …}), or null within it. */
  static String overBudget(Spend spent, long credits, String whose) {
    return spent.credits() <= credits ? null : "expected " + whose + " to cost at most " + Plural.of(credits, "credit") + "; it " + spent.summary();
  }

  /** The account's timeline report (HTML): every request, message change, webhook try and reply, with times. */
  public String timelineHtml() {
    return (String) emulator.control.call("GET", "/report" + Control.query(Map.of("account", apiKey)), null);
  }

  /**
   * The account's timeline report (HTML).
   *
   * @deprecated the same act is {@link #timelineHtml()} in every kit (docs/decisions/0003-one-facade.md); this alias
   *     stays for one release
   */
  @Deprecated(since = "0.2.0", forRemoval = true)
  public String reportHtml() {
    return timelineHtml();
  }

  /**
   * Scores a webhook receiver at {@code url} with check-receiver's battery (docs/webhooks.md), signed with the world's
   * secret, and answers its report (each check's {@code name}, {@code passed}, {@code reason}); more flags of the
   * command ({@code "--only", "duplicate,orphan"}) may follow. It runs the emulator's own CLI: the carried runtime's
   * or the command's.
   */
  public ReceiverReport checkReceiver(String url, String... flags) {
    List<String> words = new ArrayList<>(emulator.cli());
    words.addAll(List.of("check-receiver", url, "--json", "--signing-secret", signingSecret));
    words.addAll(Arrays.asList(flags));
    try {
      Path output = Files.createTempFile("sms-emulator-check-", ".json");
      try {
        Process process = new ProcessBuilder(words).redirectErrorStream(false).redirectOutput(output.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
          process.destroyForcibly();
          throw new IllegalStateException("check-receiver did not end within 5 minutes: " + String.join(" ", words));
        }
        String text = Files.readString(output, StandardCharsets.UTF_8).trim();
        if (text.isEmpty()) throw new IllegalStateException("check-receiver printed no report (exit " + process.exitValue() + "): " + String.join(" ", words));
        return ReceiverReport.fromJson(Json.parse(text));
      } finally {
        Files.deleteIfExists(output);
      }
    } catch (IOException e) {
      throw new IllegalStateException("check-receiver could not run: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking " + url, e);
    }
  }

  /** Deletes the world's clock, and with it the account and its messages; removes the catcher's route. */
  @Override
  public void close() {
    try {
      emulator.control.clocksDelete(clock.id);
    } catch (ControlException e) {
      // The test may have deleted its clock itself, or reset the emulator.
      if (!e.code.equals("CONTROL_NOT_FOUND")) throw e;
    } finally {
      catcher.close();
    }
  }
}
