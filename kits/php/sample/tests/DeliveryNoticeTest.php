<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use Shop\Notifier;
use SmsEmulator\PhpUnit\SmsWorld;

final class DeliveryNoticeTest extends TestCase
{
    use SmsWorld;

    /** @var resource */
    private static $webhookServer;
    private static string $statusFile;
    private static int $port;

    public static function setUpBeforeClass(): void
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0');
        self::$port = (int) substr((string) strrchr((string) stream_socket_get_name($socket, false), ':'), 1);
        fclose($socket);
        self::$statusFile = (string) tempnam(sys_get_temp_dir(), 'shop-statuses-');
        self::$webhookServer = proc_open(['php', '-S', '127.0.0.1:' . self::$port, __DIR__ . '/../public/webhook.php'],
            [['file', '/dev/null', 'r'], ['file', '/dev/null', 'w'], ['file', '/dev/null', 'w']], $pipes, null,
            ['STATUS_FILE' => self::$statusFile] + getenv());
        while (($connection = @fsockopen('127.0.0.1', self::$port)) === false) {
            usleep(20_000);
        }
        fclose($connection);
    }

    public static function tearDownAfterClass(): void
    {
        proc_terminate(self::$webhookServer);
        @unlink(self::$statusFile);
    }

    protected function smsWorldOptions(): array
    {
        return ['webhookUrl' => 'http://127.0.0.1:' . self::$port . '/sms/status', 'signingSecret' => 'shop-secret', 'balance' => 50];
    }

    public function testTheShopKeepsTheDeliveredStatusOfItsNotice(): void
    {
        $notifier = new Notifier($this->sms->control->origin, $this->sms->apiKey, 'shop-secret');
        $id = $notifier->parcelShipped('27831234567', 'A-1001');
        $this->sms->clock()->runUntilIdle();
        self::assertSame(['submitted', 'delivered'], array_column($this->sms->deliveries($id), 'status'));
        self::assertSame([$id => 'delivered'], json_decode((string) file_get_contents(self::$statusFile), true));
        self::assertSame(49, $this->sms->sms->balance());
    }
}
