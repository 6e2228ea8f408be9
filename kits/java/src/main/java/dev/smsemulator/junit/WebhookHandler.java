package dev.smsemulator.junit;

/**
 * The app's own webhook handler, called in process for each post the emulator makes to a world (see
 * {@link SmsWorld#forwardTo(WebhookHandler)}): it gets the post unchanged (only posts the emulator signed for the
 * world reach it) and its reply's status goes back to the emulator, so retries and delivery behaviours follow the app
 * (the emulator reads no webhook answer's body). A handler that throws is answered 500.
 */
@FunctionalInterface
public interface WebhookHandler {
  WebhookReply handle(Webhook webhook) throws Exception;
}
