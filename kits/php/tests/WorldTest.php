<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use SmsEmulator\PhpUnit\ApiException;
use SmsEmulator\PhpUnit\Emulator;
use SmsEmulator\PhpUnit\SmsWorld;
use SmsEmulator\PhpUnit\World;
use SmsEmulator\PhpUnit\WorldOptions;
use PHPUnit\Framework\AssertionFailedError;

require_once __DIR__ . '/AppServer.php';

/** Each test its own world whose webhooks reach the app's own handler, which fails the first try of each one. */
final class WorldTest extends TestCase
{
    use SmsWorld;

    private static AppServer $app;

    public static function setUpBeforeClass(): void
    {
        self::$app = new AppServer(failFirst: true);
    }

    public static function tearDownAfterClass(): void
    {
        self::$app->stop();
    }

    protected function smsWorldOptions(): array
    {
        return ['webhookUrl' => self::$app->url, 'signingSecret' => 'the-apps-own-secret', 'startTime' => '2026-11-23T08:00:00+02:00'];
    }

    public function testAScheduledSendWaitsForTheWorldsClockAndIsDeliveredWhenItMoves(): void
    {
        $sent = $this->sms->sms->send('27831234567', 'Your appointment is tomorrow', schedule: new DateTimeImmutable('2026-11-23T09:00:00+02:00'));
        self::assertSame('2026-11-23T09:00+02:00', \SmsEmulator\PhpUnit\Schedule::format($sent['schedule']));
        $this->sms->advance('30m');
        self::assertSame([], $this->sms->deliveries($sent['id']), 'nothing is sent before its time');
        $this->sms->advance(new DateInterval('PT1H'));
        $delivered = $this->sms->waitFor($sent['id'], 'delivered', '1h');
        self::assertSame('delivered', $delivered['status']);
        self::assertSame(['submitted', 'delivered'], array_column($this->sms->deliveries($sent['id']), 'status'));
    }

    public function testAWebhookAnswered500IsRetriedAndTheAppsOwnHandlerGetsEveryTry(): void
    {
        $sent = $this->sms->sms->send(['27831234567'], 'Your parcel is on its way');
        $this->sms->runUntilIdle('1d');
        $events = $this->sms->webhooks($sent['id']);
        self::assertCount(2, $events);
        foreach ($events as $event) {
            self::assertSame('delivered', $event['state']);
            self::assertSame([500, 200], array_column($event['attempts'], 'status'), 'the app answered each try for real');
            $tries = array_filter(self::$app->received(), static fn (array $post) => $post['event'] === $event['id']);
            self::assertSame([1, 2], array_values(array_column($tries, 'attempt')));
            self::assertSame($event['payload'], json_decode(array_values($tries)[1]['body'], true));
        }
    }

    public function testANetworkFaultReachesTheAppAsATransportErrorAndTheNextSendGoesThrough(): void
    {
        $this->sms->useScenario(['version' => 1, 'faults' => [['match' => ['operation' => 'send'], 'network' => 'reset', 'count' => 1]]]);
        try {
            $this->sms->sms->send('27831234567', 'first try');
            self::fail('the reset send answered');
        } catch (ApiException $error) {
            self::assertSame('NETWORK_ERROR', $error->errorCode);
        }
        $sent = $this->sms->sms->send('27831234567', 'second try');
        self::assertSame(1, count($this->sms->messages(['clientReference' => null])), 'only the second send was stored');
        self::assertSame('second try', $this->sms->sms->get($sent['id'])['message']);
    }

    public function testAMessageIsFoundByItsClientReferenceAndAnUnknownReferenceFindsNone(): void
    {
        $this->sms->sms->send('27831234567', 'Order A-1 is packed', clientReference: 'A-1');
        $shipped = $this->sms->sms->send('27831234567', 'Order A-2 is on its way', clientReference: 'A-2');
        self::assertSame($shipped['id'], $this->sms->messageByReference('A-2')['id']);
        self::assertSame('A-2', $this->sms->messageByReference('A-2')['client_reference']);
        self::assertNull($this->sms->messageByReference('A-3'));
    }

    public function testTheWorldsClockMovesOnlyItsOwnTimeAndNextRunsOneQueuedEvent(): void
    {
        $start = $this->sms->clock()->now();
        $this->sms->clock()->advance('15m');
        self::assertEquals($start->modify('+15 minutes'), $this->sms->now());
        $this->sms->sms->send('27831234567', 'one step at a time');
        self::assertSame(1, $this->sms->clock()->next()['run']['fired']);
        $this->sms->clock()->set('2026-11-24T08:00:00+02:00');
        self::assertEquals(new DateTimeImmutable('2026-11-24T08:00:00+02:00'), $this->sms->clock()->now());
    }

    public function testAHandlerAttachedAfterTheWorldExistsGetsItsWebhooksAndTheLogKeepsTheKitsCopy(): void
    {
        $late = World::create(Emulator::shared()->control, name: 'late handler');
        try {
            $sent = $late->sms->send('27831234567', 'before the handler');
            $late->forwardTo(self::$app->url);
            $late->clock()->runUntilIdle('1d');
            $events = $late->webhookLog(['message' => $sent['id']]);
            self::assertSame(['delivered', 'delivered'], array_column($events, 'state'));
            $posted = array_column(array_filter(self::$app->received(), static fn (array $post) => in_array($post['event'], array_column($events, 'id'), true)), 'event');
            self::assertSame(array_column($events, 'id'), array_values(array_unique($posted)));
        } finally {
            $late->close();
        }
    }

    public function testAWorldsWebhooksAreSignedWithItsOwnWebhookSecretGivenOrGenerated(): void
    {
        $own = World::create(Emulator::shared()->control, name: 'own webhook secret', webhookUrl: self::$app->url, webhookSigningSecret: 'whsec-the-apps-own');
        try {
            self::assertSame('whsec-the-apps-own', $own->webhookSigningSecret);
            $sent = $own->sms->send('27831234567', 'signed for the app');
            $own->clock()->runUntilIdle('1d');
            $ids = array_column($own->webhookLog(['message' => $sent['id']]), 'id');
            $posts = array_values(array_filter(self::$app->received(), static fn (array $post) => in_array($post['event'], $ids, true)));
            self::assertNotEmpty($posts);
            foreach ($posts as $post) {
                self::assertSame(hash_hmac('sha256', $post['body'], 'whsec-the-apps-own'), $post['signature']);
            }
        } finally {
            $own->close();
        }
        self::assertNotEmpty($this->sms->webhookSigningSecret);
        self::assertNotSame('whsec-the-apps-own', $this->sms->webhookSigningSecret);
    }

    public function testAnOptOutAndTheBalanceAreTheWorldsOwn(): void
    {
        self::assertTrue($this->sms->optOut('27830000001')['optedOut']);
        self::assertSame(['27830000001'], $this->sms->control->optOutsList(['account' => $this->sms->apiKey, 'environment' => 'live'])['items']);
        $before = $this->sms->balance();
        $this->sms->sms->send('27831234567', 'one credit');
        self::assertSame($before - 1, $this->sms->balance());
        self::assertSame($this->sms->sms->balance(), $this->sms->balance());
    }

    public function testABundledScenarioIsTheWorldsOwn(): void
    {
        $scenario = $this->sms->useBundledScenario('happy-path');
        self::assertSame($scenario, $this->sms->control->accountsGetScenario($this->sms->apiKey));
        self::assertSame($this->sms->scenario(['version' => 1]), $this->sms->control->accountsGetScenario($this->sms->apiKey));
    }

    public function testTheReceiverCheckReportsOnTheAppsHandler(): void
    {
        $report = $this->sms->checkReceiver(self::$app->url, ['only' => ['statuses']]);
        self::assertSame(self::$app->url, $report['url']);
        self::assertSame(['statuses'], array_column($report['checks'], 'name'));
    }

    #[WorldOptions(balance: 2, startTime: '2026-12-01T10:00:00+02:00')]
    public function testATestsOwnWorldOptionsComeFromItsAttributeOverTheClasssSettings(): void
    {
        self::assertSame(2, $this->sms->balance());
        self::assertEquals(new DateTimeImmutable('2026-12-01T10:00:00+02:00'), $this->sms->now());
    }

    public function testTheAssertionsAnswerWhatMatchedAndFailNamingWhatTheWorldDid(): void
    {
        $sent = $this->sms->sms->send('27831234567', 'Your parcel is on its way');
        $this->sms->clock()->runUntilIdle('1d');
        self::assertSame($sent['id'], $this->sms->assertSent('27831234567', 'parcel')['id']);
        self::assertSame($sent['id'], $this->sms->assertWebhook($sent['id'], 'delivered')['messageId']);
        try {
            $this->sms->assertSent('27830000000');
            self::fail('a message to nobody was found');
        } catch (AssertionFailedError $failure) {
            self::assertStringContainsString('expected a message to 27830000000; the world sent 27831234567: "Your parcel is on its way" (delivered)', $failure->getMessage());
        }
        try {
            $this->sms->assertWebhook($sent['id'], 'expired');
            self::fail('an expired webhook was found');
        } catch (AssertionFailedError $failure) {
            self::assertStringContainsString('the world\'s webhooks: submitted (tries answered 500, 200); delivered (tries answered 500, 200)', $failure->getMessage());
        }
    }

    public function testTwoWorldsDoNotSeeEachOthersMessages(): void
    {
        $other = World::create(Emulator::shared()->control, name: 'neighbour');
        try {
            $mine = $this->sms->sms->send('27831234567', 'mine');
            $theirs = $other->sms->send('27831234567', 'theirs');
            self::assertSame([$mine['id']], array_column($this->sms->messages(), 'id'));
            self::assertSame([$theirs['id']], array_column($other->messages(), 'id'));
            self::assertSame(1, $other->sms->list()['total_items'], 'the API answers only its own account too');
        } finally {
            $other->delete();
        }
    }

    public function testASandboxWorldSendsThroughTheSandboxApiWithItsOwnBalanceAndSecret(): void
    {
        $sandbox = World::create(Emulator::shared()->control, name: 'sandbox', signingSecret: 'sandbox-secret', balance: 7, environment: 'sandbox');
        try {
            self::assertSame(7, $sandbox->sms->balance());
            $sent = $sandbox->sms->send('27831234567', 'hello from the sandbox');
            self::assertSame([$sent['id']], array_column($sandbox->messages(), 'id'));
            self::assertSame([], $sandbox->control->messagesList(['account' => $sandbox->apiKey, 'environment' => 'live'])['items']);
        } finally {
            $sandbox->delete();
        }
    }
}
