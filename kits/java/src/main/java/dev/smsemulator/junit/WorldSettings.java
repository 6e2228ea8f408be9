package dev.smsemulator.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A world's own settings, on a test class (every test's world) or a test method (that test's, replacing the class's):
 * the account's signing secret, balances and scopes, the clock's start time, the environment its client talks to,
 * its scenario, and the app's own webhook URL. An attribute left at its default keeps the kit's default. The same
 * settings in code: {@link SmsWorld#builder()}.
 */
@Documented
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
public @interface WorldSettings {
  /** The account's signing secret; default: one drawn for the world ({@code sk_test_…}). */
  String signingSecret() default "";

  /**
   * The world's webhook signing secret: the emulator signs the world's webhooks with it and the world's catcher keeps
   * only posts it signed; default: one the emulator draws for the world ({@code whsec_…}).
   */
  String webhookSigningSecret() default "";

  /** The world clock's start, ISO 8601 ({@code 2026-11-23T09:00:00+02:00}); default: the emulator's now. */
  String startTime() default "";

  /** The live balance in credits; default (-1): the emulator's. */
  long balance() default -1;

  /** The sandbox balance in credits; default (-1): the emulator's. */
  long sandboxBalance() default -1;

  /** The environment the world's client talks to: {@code live} ({@code /v1}) or {@code sandbox} ({@code /sandbox/v1}). */
  String environment() default "live";

  /** The account's scopes ({@code balance}, {@code send}, {@code read}, {@code edit}, {@code delete}); default: all. */
  String[] scopes() default {};

  /** The account's own scenario as YAML or JSON text; default: none. */
  String scenario() default "";

  /** A bundled scenario by name as the account's own ({@code rate-limited}, {@code degraded-api}, …); default: none. */
  String bundledScenario() default "";

  /**
   * The app's own webhook URL: each post goes there unchanged and the emulator gets the app's answer, while the world
   * keeps a copy for its assertions; default: none (the world's catcher answers 200).
   */
  String appWebhookUrl() default "";
}
