package dev.smsemulator.junit;

import java.net.http.HttpHeaders;

/**
 * An error answer of the API: its code (SIGNATURE_MISMATCH, ...), HTTP status, description and headers. The code is
 * NETWORK_ERROR (status 0) when no answer came; retryAfter is Retry-After in seconds of the emulator's clock (a rate
 * limit counts on the test's clock: move it instead of sleeping), or -1.
 */
public class SmsApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public final String code;
  public final int status;
  public final String description;
  public final HttpHeaders headers;
  public final int retryAfter;

  public SmsApiException(String code, int status, String description, HttpHeaders headers, Throwable cause) {
    super(code + " (" + status + "): " + description, cause);
    this.code = code;
    this.status = status;
    this.description = description;
    this.headers = headers;
    this.retryAfter = headers == null ? -1 : headers.firstValue("retry-after").map(Integer::parseInt).orElse(-1);
  }
}
