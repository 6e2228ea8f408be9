package dev.smsemulator.junit;

/** What the app answers a webhook with: the status, and a body of its content type (both may be empty). */
public record WebhookReply(int status, String body, String contentType) {
  /** 200 with no body. */
  public static WebhookReply ok() {
    return new WebhookReply(200, "", null);
  }

  /** A status with no body. */
  public static WebhookReply status(int status) {
    return new WebhookReply(status, "", null);
  }

  /** A status with a text body. */
  public static WebhookReply of(int status, String body) {
    return new WebhookReply(status, body, "text/plain; charset=utf-8");
  }
}
