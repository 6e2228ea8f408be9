package dev.smsemulator.junit;

/** What {@code POST /_emulator/sign} answers: the canonical string and its signature. */
public record SignatureResult(String stringToSign, String signature) {}
