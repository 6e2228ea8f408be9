package dev.smsemulator.junit;

/**
 * The app's own webhook handler, called in process for each post the emulator makes to a world (see
 * {@link SmsWorld#forwardTo(WebhookHandler)}): it gets the post unchanged and its reply goes back to the emulator, so
 * retries and delivery behaviours follow the app. A handler that throws is answered 500 with the exception's text.
 */
@FunctionalInterface
public interface WebhookHandler {
  WebhookReply handle(Webhook webhook) throws Exception;
}
