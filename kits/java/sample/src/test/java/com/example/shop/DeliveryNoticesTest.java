package com.example.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.smsemulator.junit.SmsEmulatorTest;
import dev.smsemulator.junit.SmsWorld;
import dev.smsemulator.junit.Webhook;
import dev.smsemulator.junit.WebhookReply;
import dev.smsemulator.junit.WorldSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@SmsEmulatorTest
@WorldSettings(signingSecret = "sk_shop_secret", startTime = "2026-11-23T09:00:00+02:00", balance = 20)
class DeliveryNoticesTest {
  DeliveryNotices app;

  @BeforeEach
  void wireTheApp(SmsWorld sms) {
    // The app talks to the world's API with the world's own key and secret, and gets the world's webhooks.
    app = new DeliveryNotices(sms.apiBaseUrl, sms.apiKey, sms.signingSecret);
    sms.forwardTo(webhook -> WebhookReply.status(app.onWebhook(webhook.body())));
  }

  @Test
  void theCustomerIsToldOnceAndTheShopRecordsTheDelivery(SmsWorld sms) throws Exception {
    assertEquals(Instant.parse("2026-11-23T07:00:00Z"), sms.now());
    assertEquals("sk_shop_secret", sms.signingSecret);
    String id = app.notifyShipped("27831234567", "PX-1001");

    sms.waitFor(id, "delivered", Duration.ofMinutes(10)); // moves the world's clock; fails with the history
    assertEquals("delivered", app.outcomeOf(id)); // the app's own handler got the webhook
    sms.assertWebhook(id, "delivered"); // and the kit saw it too
    sms.assertSent("27831234567", "PX-1001");
    assertEquals(19, sms.client.balance());
  }

  @Test
  void aWebhookTheAppRefusesIsSentAgain(SmsWorld sms) throws Exception {
    app.refuseNext(1);
    String id = app.notifyShipped("27831234567", "PX-1002");

    sms.waitFor(id, "delivered");
    assertEquals(List.of(503, 200), sms.received().stream().limit(2).map(Webhook::answered).toList());
    assertEquals("delivered", app.outcomeOf(id));
  }
}
