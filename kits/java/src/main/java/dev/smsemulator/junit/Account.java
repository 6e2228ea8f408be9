package dev.smsemulator.junit;

import java.util.List;

/** An account of the emulator: its key, secret, scopes, each environment's side, and the test clock it lives on. */
public record Account(
    String apiKey, String signingSecret, List<String> scopes, AccountEnvironment live, AccountEnvironment sandbox, String clock) {}
